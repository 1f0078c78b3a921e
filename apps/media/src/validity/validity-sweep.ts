// "cleanupOutdatedFiles: removes files past their validity": a scheduled sweep
// deletes files whose validTo has passed in folders that asked for it. Safe with
// several replicas: a transaction-scoped advisory lock lets one sweep run at a
// time (the others skip the round), and rows are taken FOR UPDATE SKIP LOCKED so
// a file busy in a user's transaction waits for the next round. Idempotent: a
// deleted file is gone, so a second run finds nothing. The deletions are
// announced and the blobs' removal scheduled (blob intents) in the batch's
// transaction; the bytes are removed after it, or by the blob intent sweep
// when a crash or a failed delete comes in between.
import type { Knex } from "knex";
import { announceDeletedFiles, removeDeletedBlobs, scheduleDeletedBlobs } from "../files/file-delete.js";
import type { DeletedFileBlob } from "../files/file-events.js";
import type { FileDeps } from "../files/file-deps.js";

const BATCH = 1000;

/** One sweep; returns how many files it deleted (null when another replica held the lock). */
export async function sweepOutdatedFiles(deps: FileDeps, now: number = Date.now()): Promise<number | null> {
  let total = 0;
  for (;;) {
    const batch = await deps.knex.transaction((trx) => deleteOneBatch(trx, deps, now));
    if (batch === null) return total === 0 ? null : total;
    for (const [customerId, blobs] of batch) {
      total += blobs.length;
      await removeDeletedBlobs(deps, customerId, blobs);
    }
    if ([...batch.values()].reduce((n, b) => n + b.length, 0) < BATCH) return total;
  }
}

async function deleteOneBatch(trx: Knex.Transaction, deps: FileDeps, now: number): Promise<Map<number, DeletedFileBlob[]> | null> {
  const lock = await trx.raw("SELECT pg_try_advisory_xact_lock(hashtext('media'), hashtext('validity-sweep')) AS ok");
  if (!lock.rows[0]?.ok) return null;
  const deleted = await trx.raw(
    `DELETE FROM file WHERE id IN (
       SELECT x.id FROM file x JOIN file_folder f ON f.id = x.file_folder_id
        WHERE f.cleanup_outdated_files AND x.valid_to IS NOT NULL AND x.valid_to < ?
        LIMIT ? FOR UPDATE OF x SKIP LOCKED)
     RETURNING id, customer_id, storage_key, thumbnail_key`,
    [now, BATCH],
  );
  const byCustomer = new Map<number, DeletedFileBlob[]>();
  for (const row of deleted.rows as { id: string; customer_id: string; storage_key: string | null; thumbnail_key: string | null }[]) {
    const customerId = Number(row.customer_id);
    if (!byCustomer.has(customerId)) byCustomer.set(customerId, []);
    byCustomer.get(customerId)!.push({ fileId: row.id, storageKey: row.storage_key, thumbnailKey: row.thumbnail_key });
  }
  const ids = [...byCustomer.values()].flat().map((b) => b.fileId);
  if (ids.length) await deps.teams.removeAll(trx, "file", ids);
  for (const [customerId, blobs] of byCustomer) {
    await scheduleDeletedBlobs(trx, customerId, blobs);
    await announceDeletedFiles(trx, deps.outbox, customerId, blobs, false);
  }
  return byCustomer;
}
