// The first migration of a service that so far only keeps the tenant replica:
// the `tenant` table and the event inbox, in the service's own schema.
import type { Knex } from "knex";
import { createInboxTable, dropInboxTable } from "@signage/events";
import { addTenantAccessColumns, createTenantReplicaTable } from "./tenant-replica.js";

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

/** Adds the access columns (expiration, tombstone, storage quota) to a replica created before they existed. */
export const tenantAccessMigration = {
  async up(knex: Knex): Promise<void> {
    await addTenantAccessColumns(knex);
  },
  async down(knex: Knex): Promise<void> {
    await knex.raw("ALTER TABLE tenant DROP COLUMN IF EXISTS expiration_date, DROP COLUMN IF EXISTS deleted, DROP COLUMN IF EXISTS storage_size");
  },
};

/** `storage_size_known`: a replica row whose events carried the quota (null = unlimited) answers without core. */
export const tenantStorageQuotaMigration = {
  async up(knex: Knex): Promise<void> {
    await addTenantAccessColumns(knex);
  },
  async down(knex: Knex): Promise<void> {
    await knex.raw("ALTER TABLE tenant DROP COLUMN IF EXISTS storage_size_known");
  },
};

/** `version`: core's outbox seq of the last customer event applied (a redelivered older one is skipped). */
export const tenantVersionMigration = {
  async up(knex: Knex): Promise<void> {
    await addTenantAccessColumns(knex);
  },
  async down(knex: Knex): Promise<void> {
    await knex.raw("ALTER TABLE tenant DROP COLUMN IF EXISTS version");
  },
};
