// The versions of core's team facts the replica applied (libs/runtime replica-versions.ts): a
// redelivered older team event must not undo a newer one (bring back a deleted team, put back
// memberships a later change took away).
import type { Knex } from "knex";
import { createReplicaVersionTable } from "@signage/runtime";

export async function up(knex: Knex): Promise<void> {
  await createReplicaVersionTable(knex);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("team_replica_version");
}
