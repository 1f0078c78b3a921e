// "Root folder: auto-created per customer, has no name and parentId null, cannot be deleted."
import type { Knex } from "knex";
import type { IdGenerator } from "@signage/db";

// "Deleting a customer cascades to every service through an event; nothing of it remains
// readable afterwards": the purge of a customer (files/tenant-purge.ts) holds this lock
// exclusively, a lazy root creation shares it, so a write that was let in before the delete
// (an upload still streaming) cannot create the customer's root again after the purge.
const TENANT_LOCK = "SELECT pg_advisory_xact_lock%s(hashtextextended(?, 0))";
const tenantLockKey = (customerId: number) => `media.tenant:${customerId}`;

/** In the purge's transaction: waits for writes that may create the customer's root, and holds them off until commit. */
export async function lockTenantForPurge(trx: Knex.Transaction, customerId: number): Promise<void> {
  await trx.raw(TENANT_LOCK.replace("%s", ""), [tenantLockKey(customerId)]);
}

/** In a write's transaction: the customer is not being purged until it ends; true when the customer is already deleted (tombstone). */
export async function tenantDeletedUnderLock(trx: Knex | Knex.Transaction, customerId: number): Promise<boolean> {
  await trx.raw(TENANT_LOCK.replace("%s", "_shared"), [tenantLockKey(customerId)]);
  const row: { deleted: boolean } | undefined = await trx("tenant").where({ customer_id: customerId }).first("deleted");
  return row?.deleted === true;
}

/** Creates the customer's root file folder unless it exists (idempotent under concurrency). */
export async function ensureRootFolder(trx: Knex | Knex.Transaction, customerId: number, newId: IdGenerator): Promise<void> {
  const id = newId();
  await trx.raw(
    `INSERT INTO file_folder (id, customer_id, name, parent_id, path) VALUES (?, ?, NULL, NULL, ARRAY[?]::uuid[])
     ON CONFLICT (customer_id) WHERE parent_id IS NULL DO NOTHING`,
    [id, customerId, id],
  );
}
