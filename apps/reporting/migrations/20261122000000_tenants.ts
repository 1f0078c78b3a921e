// reporting's schema so far: the tenant replica and the event inbox.
import type { Knex } from "knex";
import { createInboxTable, dropInboxTable } from "@signage/events";
import { createTenantReplicaTable } from "@signage/runtime";

export async function up(knex: Knex): Promise<void> {
  await createTenantReplicaTable(knex);
  await createInboxTable(knex);
}

export async function down(knex: Knex): Promise<void> {
  await dropInboxTable(knex);
  await knex.schema.dropTableIfExists("tenant");
}
