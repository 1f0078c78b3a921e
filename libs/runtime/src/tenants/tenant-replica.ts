// Each service's copy of the tenant directory, kept from customer.* events so
// scope resolution (network owner -> members) and the per-call access check
// (restricted, expired, deleted) need no call to core.
import type { Knex } from "knex";
import type { TenantAccess, TenantDirectory } from "@signage/auth";

/** The data of customer.created / customer.updated / customer.deleted. */
export interface TenantFacts {
  id: number;
  ownerSubresellerId: number | null;
  networkOwner: boolean;
  restricted: boolean;
  /** Unix ms; absent in events published before it was carried. */
  expirationDate?: number | null;
  /** Storage quota in bytes (null: unlimited); absent in events published before it was carried. */
  storageSize?: number | null;
}

/** Migration helper: the `tenant` replica table in the service's own schema. */
export async function createTenantReplicaTable(knex: Knex): Promise<void> {
  await knex.schema.createTable("tenant", (t) => {
    t.bigInteger("customer_id").primary();
    t.bigInteger("owner_subreseller_id");
    t.boolean("network_owner").notNullable().defaultTo(false);
    t.boolean("restricted").notNullable().defaultTo(false);
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("CREATE INDEX tenant_owner_idx ON tenant (owner_subreseller_id) WHERE owner_subreseller_id IS NOT NULL");
  await addTenantAccessColumns(knex);
}

/**
 * The access columns (expiration, deletion tombstone, storage quota, and `version`: core's outbox
 * seq of the last customer event applied, so a redelivered older one never undoes a newer one).
 * Idempotent: part of
 * a new replica table, and added to older ones by `tenantAccessMigration`.
 */
export async function addTenantAccessColumns(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE tenant
    ADD COLUMN IF NOT EXISTS expiration_date timestamptz,
    ADD COLUMN IF NOT EXISTS deleted boolean NOT NULL DEFAULT false,
    ADD COLUMN IF NOT EXISTS storage_size bigint,
    ADD COLUMN IF NOT EXISTS storage_size_known boolean NOT NULL DEFAULT false,
    ADD COLUMN IF NOT EXISTS version bigint`);
}

/** `version`: the event's seq (core's outbox sequence), when it carries one. */
export async function upsertTenant(trx: Knex | Knex.Transaction, t: TenantFacts, version?: number): Promise<void> {
  const row: Record<string, unknown> = {
    customer_id: t.id,
    owner_subreseller_id: t.ownerSubresellerId,
    network_owner: t.networkOwner,
    restricted: t.restricted,
    deleted: false,
    updated_at: new Date(),
  };
  if (t.expirationDate !== undefined) row.expiration_date = t.expirationDate === null ? null : new Date(t.expirationDate);
  // Carried (null included: unlimited) is known; absent leaves what the row had.
  if (t.storageSize !== undefined) Object.assign(row, { storage_size: t.storageSize, storage_size_known: true });
  if (version !== undefined) row.version = version;
  await trx("tenant").insert(row).onConflict("customer_id").merge();
}

/** A deleted customer stays as a tombstone, so its tokens are refused (an unknown one is let through). */
export async function markTenantDeleted(trx: Knex | Knex.Transaction, t: TenantFacts, version?: number): Promise<void> {
  await trx("tenant")
    .insert({ customer_id: t.id, owner_subreseller_id: null, network_owner: false, restricted: true, deleted: true, updated_at: new Date(), ...(version !== undefined ? { version } : {}) })
    .onConflict("customer_id")
    .merge();
}

interface TenantRow {
  customer_id: number;
  network_owner: boolean;
  restricted: boolean;
  expiration_date?: Date | null;
  deleted?: boolean;
}

/** The tenant's storage quota in bytes from the replica; undefined when unknown or unlimited. */
/**
 * The customer's storage quota as its events carried it: `{ storageSize: null }` is unlimited;
 * undefined when the replica cannot say (no event yet, or only events from before they carried it).
 */
export async function tenantStorageQuota(knex: Knex | Knex.Transaction, customerId: number): Promise<{ storageSize: number | null } | undefined> {
  const row: { storage_size: string | number | null; storage_size_known: boolean } | undefined = await knex("tenant")
    .where({ customer_id: customerId, deleted: false, storage_size_known: true })
    .first("storage_size", "storage_size_known");
  return row ? { storageSize: row.storage_size === null ? null : Number(row.storage_size) } : undefined;
}

/** Whether the replica holds the customer's deletion (its tombstone). */
export async function isTenantDeleted(knex: Knex | Knex.Transaction, customerId: number): Promise<boolean> {
  const row: { deleted: boolean } | undefined = await knex("tenant").where({ customer_id: customerId }).first("deleted");
  return row?.deleted === true;
}

export function createReplicaTenantDirectory(knex: Knex): TenantDirectory {
  return {
    async membersOf(networkOwnerId) {
      const rows = await knex("tenant").where({ owner_subreseller_id: networkOwnerId }).select("customer_id");
      return rows.map((r: { customer_id: number }) => Number(r.customer_id));
    },
    async access(customerId): Promise<TenantAccess | undefined> {
      // `*`: before the consumer added the access columns, the older row still answers.
      const row: TenantRow | undefined = await knex("tenant").where({ customer_id: customerId }).first();
      if (!row) return undefined;
      return {
        restricted: row.restricted,
        expirationDate: row.expiration_date ? row.expiration_date.getTime() : null,
        deleted: row.deleted ?? false,
        networkOwner: row.network_owner,
      };
    },
  };
}
