// Teams (document 2 "Team"), the generic assignment table of core's
// team-enabled resources (users now; devices, campaigns, ... as they arrive),
// users' `team_ids`, and the team outbox: facts other services replicate
// (teams, memberships, users' `restricted`, the customer's team access
// settings) are written to the service's outbox (`event_outbox`, libs/events)
// in the same transaction as the change and published by its relay. Changes made by
// other code paths (user update/delete, customer settings) reach the outbox
// through the triggers below, so no writer can forget to publish them.
import type { Knex } from "knex";
import { createOutboxTable } from "@signage/events";
import { addTeamIdsColumn, createTeamAssignmentTable, dropTeamIdsColumn } from "@signage/runtime";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("team", (t) => {
    t.uuid("id").primary();
    t.bigInteger("customer_id").notNullable().references("id").inTable("customer").onDelete("CASCADE");
    t.text("name").notNullable();
    t.text("comment");
    t.timestamp("created_date", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("CREATE INDEX team_customer_name_idx ON team (customer_id, name, id)");

  await createTeamAssignmentTable(knex);
  await knex.raw("ALTER TABLE team_assignment ADD CONSTRAINT team_assignment_team_fk FOREIGN KEY (team_id) REFERENCES team (id) ON DELETE CASCADE");
  await addTeamIdsColumn(knex, "app_user");

  // The service's transactional outbox (libs/events), which the triggers below write to.
  await createOutboxTable(knex);

  await knex.raw(`
    CREATE FUNCTION team_outbox_user_access() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        DELETE FROM team_assignment WHERE resource_id = OLD.id;
        INSERT INTO event_outbox (event_id, type, customer_id, data) VALUES (gen_random_uuid()::text, 'user.access.changed', OLD.customer_id,
          json_build_object('userId', OLD.id, 'customerId', OLD.customer_id, 'restricted', OLD.restricted, 'deleted', true));
        RETURN OLD;
      END IF;
      INSERT INTO event_outbox (event_id, type, customer_id, data) VALUES (gen_random_uuid()::text, 'user.access.changed', NEW.customer_id,
        json_build_object('userId', NEW.id, 'customerId', NEW.customer_id, 'restricted', NEW.restricted, 'deleted', false));
      RETURN NEW;
    END $$`);
  await knex.raw(`CREATE TRIGGER app_user_team_access_insert AFTER INSERT ON app_user FOR EACH ROW EXECUTE FUNCTION team_outbox_user_access()`);
  await knex.raw(`CREATE TRIGGER app_user_team_access_update AFTER UPDATE OF restricted, customer_id ON app_user FOR EACH ROW
    WHEN (OLD.restricted IS DISTINCT FROM NEW.restricted OR OLD.customer_id IS DISTINCT FROM NEW.customer_id) EXECUTE FUNCTION team_outbox_user_access()`);
  await knex.raw(`CREATE TRIGGER app_user_team_access_delete AFTER DELETE ON app_user FOR EACH ROW EXECUTE FUNCTION team_outbox_user_access()`);

  await knex.raw(`
    CREATE FUNCTION team_outbox_settings() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO event_outbox (event_id, type, customer_id, data) VALUES (gen_random_uuid()::text, 'team.settings.changed', NEW.id,
        json_build_object('customerId', NEW.id, 'settings', json_build_object(
          'userFullAccessIfNotInTeam', NEW.user_full_access_if_not_in_team,
          'accessResourcesWithoutTeam', NEW.access_resources_without_team,
          'isDeviceAndGroupCreationEnabledInRootForTeamUsers', NEW.device_creation_in_root_for_team_users,
          'isContentAndGroupCreationEnabledInRootForTeamUsers', NEW.content_creation_in_root_for_team_users,
          'isFileAndFolderCreationEnabledInRootForTeamUsers', NEW.file_creation_in_root_for_team_users)));
      RETURN NEW;
    END $$`);
  await knex.raw(`CREATE TRIGGER customer_team_settings_update AFTER UPDATE ON customer FOR EACH ROW
    WHEN ((OLD.user_full_access_if_not_in_team, OLD.access_resources_without_team, OLD.device_creation_in_root_for_team_users,
           OLD.content_creation_in_root_for_team_users, OLD.file_creation_in_root_for_team_users)
          IS DISTINCT FROM
          (NEW.user_full_access_if_not_in_team, NEW.access_resources_without_team, NEW.device_creation_in_root_for_team_users,
           NEW.content_creation_in_root_for_team_users, NEW.file_creation_in_root_for_team_users))
    EXECUTE FUNCTION team_outbox_settings()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP TRIGGER IF EXISTS customer_team_settings_update ON customer");
  for (const t of ["insert", "update", "delete"]) await knex.raw(`DROP TRIGGER IF EXISTS app_user_team_access_${t} ON app_user`);
  await knex.raw("DROP FUNCTION IF EXISTS team_outbox_settings()");
  await knex.raw("DROP FUNCTION IF EXISTS team_outbox_user_access()");
  await dropTeamIdsColumn(knex, "app_user");
  await knex.schema.dropTableIfExists("team_assignment");
  await knex.schema.dropTableIfExists("team");
}
