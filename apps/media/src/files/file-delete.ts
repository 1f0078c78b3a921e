// Deleting files: rows (and their team assignments), the events announcing it
// and the blobs' removal intents in the caller's transaction; the bytes after
// commit, since a blob store cannot roll back (a rolled-back delete must still
// find its bytes). A crash or a failed store delete after the commit leaves
// due intents, which the blob intent sweep finishes (storage/blob-intents.ts).
import type { Knex } from "knex";
import type { OutboxPort } from "@signage/runtime";
import { discardBlobs, scheduleBlobRemoval } from "../storage/blob-intents.js";
import { enqueueFilesDeleted, type DeletedFileBlob } from "./file-events.js";
import { enqueueFilesUntagged } from "./file-tag-events.js";
import type { FileDeps } from "./file-deps.js";
import type { MediaTeamHooks } from "./team-hooks.js";

/** Deletes the customer's files among `fileIds` (others are ignored) and returns their blobs. */
export async function deleteFileRows(trx: Knex.Transaction, teams: MediaTeamHooks, customerId: number, fileIds: string[]): Promise<DeletedFileBlob[]> {
  if (fileIds.length === 0) return [];
  const rows = await trx("file").where({ customer_id: customerId }).whereIn("id", fileIds).delete().returning(["id", "storage_key", "thumbnail_key"]);
  return afterRowsDeleted(trx, teams, customerId, rows);
}

/** Deletes every file in the folder `folderId` or below it (recursive path containment). */
export async function deleteFilesUnder(trx: Knex.Transaction, teams: MediaTeamHooks, customerId: number, folderId: string): Promise<DeletedFileBlob[]> {
  const rows = await trx("file").where({ customer_id: customerId }).whereRaw("path @> ARRAY[?]::uuid[]", [folderId]).delete().returning(["id", "storage_key", "thumbnail_key"]);
  return afterRowsDeleted(trx, teams, customerId, rows);
}

async function afterRowsDeleted(trx: Knex.Transaction, teams: MediaTeamHooks, customerId: number, rows: { id: string; storage_key: string | null; thumbnail_key: string | null }[]): Promise<DeletedFileBlob[]> {
  const blobs = rows.map((r) => ({ fileId: r.id, storageKey: r.storage_key, thumbnailKey: r.thumbnail_key }));
  if (blobs.length) await teams.removeAll(trx, "file", blobs.map((b) => b.fileId));
  await scheduleDeletedBlobs(trx, customerId, blobs);
  return blobs;
}

/** In the transaction that deleted the rows: their bytes are due for removal from its commit on. */
export async function scheduleDeletedBlobs(trx: Knex.Transaction, customerId: number, blobs: DeletedFileBlob[]): Promise<void> {
  await scheduleBlobRemoval(trx, customerId, blobKeys(blobs));
}

function blobKeys(blobs: DeletedFileBlob[]): Array<string | null> {
  return blobs.flatMap((b) => [b.storageKey, b.thumbnailKey]);
}

/** In the deleting transaction: tell the consumers (content drops references, core's tag index; the event lists the blob keys too). */
export async function announceDeletedFiles(trx: Knex.Transaction, outbox: OutboxPort, customerId: number, blobs: DeletedFileBlob[], removeFromPlaylists: boolean): Promise<void> {
  if (blobs.length === 0) return;
  await enqueueFilesDeleted(outbox, trx, customerId, blobs, removeFromPlaylists);
  await enqueueFilesUntagged(trx, outbox, customerId, blobs.map((b) => b.fileId));
}

/** After commit: the deleted files' bytes (scheduled by deleteFileRows / scheduleDeletedBlobs), best effort. */
export async function removeDeletedBlobs(deps: Pick<FileDeps, "knex" | "store" | "logger">, customerId: number, blobs: DeletedFileBlob[]): Promise<void> {
  if (blobs.length === 0) return;
  const left = await discardBlobs(deps.knex, deps.store, blobKeys(blobs));
  // The rows are gone and the event is stored: a blob not deleted now is the sweep's, not an API failure.
  if (left.length > 0) deps.logger.warn({ customerId, count: left.length }, "blobs of deleted files left to the blob intent sweep");
}

/** Blob deletes a request waits for; a larger set goes on after the response. */
export const INLINE_BLOB_REMOVALS = 200;

/**
 * removeDeletedBlobs for a request: up to INLINE_BLOB_REMOVALS keys are gone when the
 * caller hears back. A big folder's bytes (thousands of store deletes, minutes on S3)
 * are left to the blob intent sweep, woken now: their intents are due from the commit
 * on, and the sweep takes them in bounded batches, shared by the replicas, never twice.
 */
export async function removeDeletedBlobsAfterResponse(deps: Pick<FileDeps, "knex" | "store" | "logger" | "blobSweep">, customerId: number, blobs: DeletedFileBlob[]): Promise<void> {
  if (blobKeys(blobs).filter(Boolean).length <= INLINE_BLOB_REMOVALS) await removeDeletedBlobs(deps, customerId, blobs);
  else deps.blobSweep.wake();
}
