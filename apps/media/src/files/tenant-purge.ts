// "Deleting a customer cascades to every service through an event; nothing of
// it remains readable afterwards": media's part of customer.deleted. Every
// tenant row goes in the event's transaction (with the inbox claim and the
// tenant tombstone); the bytes go after commit, since a blob store cannot
// roll back. Blob keys carry the customer id as a folder, so the bytes are a
// few prefix deletes whatever the number of files.
import type { Knex } from "knex";
import type { BlobStore } from "@signage/storage";

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
  /** Keys a row pointed at outside the tenant's prefixes (none today; kept so no byte can survive a format change). */
  strayKeys: string[];
}

export async function purgeTenantRows(trx: Knex.Transaction, customerId: number): Promise<TenantBlobs> {
  const uploads: { storage_key: string; store_upload_id: string }[] = await trx("upload_session").where({ customer_id: customerId }).select("storage_key", "store_upload_id");
  const strayKeys = await strayBlobKeys(trx, customerId);
  for (const table of TENANT_TABLES) await trx(table).where({ customer_id: customerId }).delete();
  return { customerId, uploads: uploads.map((u) => ({ key: u.storage_key, uploadId: u.store_upload_id })), strayKeys };
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
 * rollback, where the rows still point at the bytes; failures go to `onError`
 * (the rows are gone, a leftover blob is garbage, and the event is consumed).
 */
export function purgeTenantBlobsAfterCommit(trx: Knex.Transaction, store: BlobStore, blobs: TenantBlobs, onError: (e: unknown) => void): void {
  trx.executionPromise.then(
    () => purgeTenantBlobs(store, blobs).catch(onError),
    () => undefined,
  );
}

/** After commit: aborts the open uploads and deletes every blob of the customer. */
export async function purgeTenantBlobs(store: BlobStore, blobs: TenantBlobs): Promise<void> {
  for (const upload of blobs.uploads) await store.multipart.abort(upload.key, upload.uploadId);
  for (const prefix of tenantBlobPrefixes(blobs.customerId)) await store.deletePrefix(prefix);
  for (const key of blobs.strayKeys) await store.delete(key);
}
