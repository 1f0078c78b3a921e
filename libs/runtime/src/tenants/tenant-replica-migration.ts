// The first migration of a service that so far only keeps the tenant replica:
// the `tenant` table and the event inbox, in the service's own schema.
import type { Knex } from "knex";
import { createInboxTable, dropInboxTable } from "@signage/events";
import { createTenantReplicaTable } from "./tenant-replica.js";

export const tenantReplicaMigration = {
  async up(knex: Knex): Promise<void> {
    await createTenantReplicaTable(knex);
    await createInboxTable(knex);
  },
  async down(knex: Knex): Promise<void> {
    await dropInboxTable(knex);
    await knex.schema.dropTableIfExists("tenant");
  },
};
