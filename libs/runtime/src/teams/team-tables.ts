// Migration helpers for the team pieces of a service's own schema.
import type { Knex } from "knex";

/**
 * The generic assignment storage of a service: one row per (resource, team).
 * Resource ids are UUIDs, unique across types, so `resource_id` alone joins;
 * `resource_type` serves the team-side views and counts.
 */
export async function createTeamAssignmentTable(knex: Knex): Promise<void> {
  await knex.schema.createTable("team_assignment", (t) => {
    t.text("resource_type").notNullable();
    t.uuid("resource_id").notNullable();
    t.uuid("team_id").notNullable();
    t.boolean("read_only").notNullable().defaultTo(false);
    t.bigInteger("customer_id").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["resource_id", "team_id"]);
  });
  // Resources of a team (per type), counts per team, team deletion.
  await knex.raw("CREATE INDEX team_assignment_team_idx ON team_assignment (team_id, resource_type, resource_id)");
  await knex.raw("CREATE INDEX team_assignment_customer_idx ON team_assignment (customer_id)");
}

/**
 * The replica of core's team facts (team-replica-consumer.ts). `team` also
 * serves `select=teamAssignments(team(name))`. Core keeps the originals and
 * passes `{ teams: false }` (its `team` table is the real one).
 */
export async function createTeamReplicaTables(knex: Knex, options: { teams?: boolean } = {}): Promise<void> {
  if (options.teams !== false) {
    await knex.schema.createTable("team", (t) => {
      t.uuid("id").primary();
      t.bigInteger("customer_id").notNullable();
      t.text("name");
    });
    await knex.raw("CREATE INDEX team_customer_idx ON team (customer_id)");
  }
  await knex.schema.createTable("team_user", (t) => {
    t.uuid("user_id").primary();
    t.bigInteger("customer_id").notNullable();
    t.boolean("restricted").notNullable().defaultTo(false);
  });
  await knex.raw("CREATE INDEX team_user_customer_idx ON team_user (customer_id)");
  await knex.schema.createTable("team_membership", (t) => {
    t.uuid("user_id").notNullable();
    t.uuid("team_id").notNullable();
    t.boolean("read_only").notNullable().defaultTo(false);
    t.bigInteger("customer_id").notNullable();
    t.primary(["user_id", "team_id"]);
  });
  await knex.raw("CREATE INDEX team_membership_team_idx ON team_membership (team_id)");
  await knex.raw("CREATE INDEX team_membership_customer_idx ON team_membership (customer_id)");
  await knex.schema.createTable("team_settings", (t) => {
    t.bigInteger("customer_id").primary();
    t.boolean("user_full_access_if_not_in_team").notNullable().defaultTo(true);
    t.boolean("access_resources_without_team").notNullable().defaultTo(true);
    t.boolean("device_creation_in_root_for_team_users").notNullable().defaultTo(true);
    t.boolean("content_creation_in_root_for_team_users").notNullable().defaultTo(true);
    t.boolean("file_creation_in_root_for_team_users").notNullable().defaultTo(true);
  });
}

/**
 * What `team_user` keeps for the replica current-user check (replica-current-user.ts): the user's
 * role and customer as of `as_of` (null: from events older than these facts), and a tombstone row
 * for a deleted user, so its tokens stay refused.
 */
export async function addUserAccountColumns(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE team_user ADD COLUMN role text, ADD COLUMN as_of timestamptz, ADD COLUMN deleted boolean NOT NULL DEFAULT false");
}

export async function dropUserAccountColumns(knex: Knex): Promise<void> {
  await knex.raw("ALTER TABLE team_user DROP COLUMN IF EXISTS role, DROP COLUMN IF EXISTS as_of, DROP COLUMN IF EXISTS deleted");
}

/**
 * `team_ids uuid[]` on a team-enabled resource table: the denormalised set of
 * its teams, written with its team_assignment rows, read by the visibility
 * hook (libs/auth teamVisibilityHook). GIN for `&&`; a partial index for the
 * rows without team.
 */
export async function addTeamIdsColumn(knex: Knex, table: string, tenantColumn = "customer_id"): Promise<void> {
  await knex.raw("ALTER TABLE ?? ADD COLUMN team_ids uuid[] NOT NULL DEFAULT '{}'", [table]);
  await knex.raw("CREATE INDEX ?? ON ?? USING gin (team_ids)", [`${table}_team_ids_idx`, table]);
  await knex.raw("CREATE INDEX ?? ON ?? (??, id) WHERE team_ids = '{}'", [`${table}_without_team_idx`, table, tenantColumn]);
}

export async function dropTeamIdsColumn(knex: Knex, table: string): Promise<void> {
  await knex.raw("ALTER TABLE ?? DROP COLUMN IF EXISTS team_ids", [table]);
}
