// "Deleting a customer cascades to every service through an event; nothing of
// it remains readable afterwards": media's part of customer.deleted. Every
// tenant row goes in the event's transaction (with the inbox claim and the
// tenant tombstone), and so do the removal intents of its bytes; the bytes go
// after commit, since a blob store cannot roll back, and the blob intent sweep
// finishes them after a crash or a failed delete. Blob keys carry the customer
// id as a folder, so the bytes are a few folder intents whatever the number of
// files (storage/blob-intents.ts: a key ending with "/" is a folder).
// The tenant's own leftover blob_intent rows are kept: a write-ahead intent
// belongs to an upload that may still be writing, and its bytes can land after
// the folder delete; the intent still covers them (the upload's row cannot
// commit without the tenant's folders or app, so it discards them itself; after
// a crash the sweep takes the intent once past the grace).
import type { Knex } from "knex";
import { lockCustomerReplica } from "@signage/runtime";
import { discardBlobs, scheduleBlobRemoval } from "../storage/blob-intents.js";
import type { FileDeps } from "./file-deps.js";
import { lockTenantForPurge } from "../folders/root-folder.js";

/** Media's tables holding rows of one customer, children first (the tenant replica keeps its tombstone). */
export const TENANT_TABLES = [
  "team_assignment",
  "upload_session",
  "file",
  "file_folder",
  "custom_app",
  // The replica of the customer's team facts.
  "team_membership",
  "team_user",
  "team_settings",
  "team",
] as const;

/** The folders of blob keys that belong to one customer (storage/blob-keys.ts, custom-apps/package-keys.ts). */
export function tenantBlobPrefixes(customerId: number): string[] {
  return [`files/${customerId}/`, `thumbnails/${customerId}/`, `custom-apps/${customerId}/`];
}

export interface TenantBlobs {
  customerId: number;
  /** Unfinished multipart uploads of open sessions: their parts are not blobs yet. */
  uploads: { key: string; uploadId: string }[];
  /** Scheduled for removal in the purge's transaction: the tenant's folders, and any key a row pointed at outside them. */
  keys: string[];
}

export async function purgeTenantRows(trx: Knex.Transaction, customerId: number): Promise<TenantBlobs> {
  // First: a write that may create the customer's root lazily finishes before (and its rows go
  // here), or starts after and sees the tombstone this transaction commits (folders/root-folder.ts).
  await lockTenantForPurge(trx, customerId);
  // And the team replica's events of the customer: one that would leave a row (a deleted user's
  // tombstone) commits before this purge, or runs after it and sees the tenant deleted.
  await lockCustomerReplica(trx, customerId);
  const uploads: { storage_key: string; store_upload_id: string }[] = await trx("upload_session").where({ customer_id: customerId }).select("storage_key", "store_upload_id");
  const strayKeys = await strayBlobKeys(trx, customerId);
  for (const table of TENANT_TABLES) await trx(table).where({ customer_id: customerId }).delete();
  // The files' total (migration 20261126000000) goes too, with the changes this purge just made to it.
  await trx("storage_usage_delta").where({ customer_id: customerId }).delete();
  await trx("storage_usage").where({ customer_id: customerId }).delete();
  const keys = await scheduleBlobRemoval(trx, customerId, [...tenantBlobPrefixes(customerId), ...strayKeys]);
  return { customerId, uploads: uploads.map((u) => ({ key: u.storage_key, uploadId: u.store_upload_id })), keys };
}

async function strayBlobKeys(trx: Knex.Transaction, customerId: number): Promise<string[]> {
  const [files, thumbnails, apps] = tenantBlobPrefixes(customerId);
  const { rows } = await trx.raw(
    `SELECT k FROM (
       SELECT storage_key AS k, ? AS prefix FROM file WHERE customer_id = ?
       UNION ALL SELECT thumbnail_key, ? FROM file WHERE customer_id = ?
       UNION ALL SELECT package_key, ? FROM custom_app WHERE customer_id = ?
     ) keys WHERE k IS NOT NULL AND left(k, length(prefix)) <> prefix`,
    [files, customerId, thumbnails, customerId, apps, customerId],
  );
  return (rows as { k: string }[]).map((r) => r.k);
}

/**
 * Once `trx` (which purged the rows) committed: purgeTenantBlobs. Never after a
 * rollback, where the rows still point at the bytes (and the intents are gone
 * with it). Failures are logged: the rows are gone and the event is consumed.
 */
export function purgeTenantBlobsAfterCommit(trx: Knex.Transaction, deps: Pick<FileDeps, "knex" | "store" | "logger">, blobs: TenantBlobs): void {
  trx.executionPromise.then(
    () => purgeTenantBlobs(deps, blobs),
    () => undefined,
  );
}

/** After commit: aborts the open uploads and deletes every blob of the customer (what fails stays with the sweep). */
export async function purgeTenantBlobs(deps: Pick<FileDeps, "knex" | "store" | "logger">, blobs: TenantBlobs): Promise<void> {
  const { customerId } = blobs;
  for (const upload of blobs.uploads) {
    // Parts are no blobs, so no intent covers them: a crash here leaves them to the store's own expiry.
    await deps.store.multipart.abort(upload.key, upload.uploadId).catch((err: unknown) => deps.logger.warn({ err, customerId, key: upload.key }, "open upload not aborted after customer deletion"));
  }
  const left = await discardBlobs(deps.knex, deps.store, blobs.keys);
  if (left.length > 0) deps.logger.warn({ customerId, keys: left }, "blobs of a deleted customer left to the blob intent sweep");
}
