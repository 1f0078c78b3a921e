// Deleting files: rows (and their team assignments) and the events announcing
// it in the caller's transaction; the blobs after commit, since a blob store
// cannot roll back (a rolled-back delete must still find its bytes).
import type { Knex } from "knex";
import type { OutboxPort } from "@signage/runtime";
import { enqueueFilesDeleted, type DeletedFileBlob } from "./file-events.js";
import { enqueueFilesUntagged } from "./file-tag-events.js";
import type { FileDeps } from "./file-deps.js";
import type { MediaTeamHooks } from "./team-hooks.js";

/** Deletes the customer's files among `fileIds` (others are ignored) and returns their blobs. */
export async function deleteFileRows(trx: Knex.Transaction, teams: MediaTeamHooks, customerId: number, fileIds: string[]): Promise<DeletedFileBlob[]> {
  if (fileIds.length === 0) return [];
  const rows = await trx("file").where({ customer_id: customerId }).whereIn("id", fileIds).delete().returning(["id", "storage_key", "thumbnail_key"]);
  return afterRowsDeleted(trx, teams, rows);
}

/** Deletes every file in the folder `folderId` or below it (recursive path containment). */
export async function deleteFilesUnder(trx: Knex.Transaction, teams: MediaTeamHooks, customerId: number, folderId: string): Promise<DeletedFileBlob[]> {
  const rows = await trx("file").where({ customer_id: customerId }).whereRaw("path @> ARRAY[?]::uuid[]", [folderId]).delete().returning(["id", "storage_key", "thumbnail_key"]);
  return afterRowsDeleted(trx, teams, rows);
}

async function afterRowsDeleted(trx: Knex.Transaction, teams: MediaTeamHooks, rows: { id: string; storage_key: string | null; thumbnail_key: string | null }[]): Promise<DeletedFileBlob[]> {
  const blobs = rows.map((r) => ({ fileId: r.id, storageKey: r.storage_key, thumbnailKey: r.thumbnail_key }));
  if (blobs.length) await teams.removeAll(trx, "file", blobs.map((b) => b.fileId));
  return blobs;
}

/** In the deleting transaction: tell the consumers (content drops references, storage drops bytes, core's tag index). */
export async function announceDeletedFiles(trx: Knex.Transaction, outbox: OutboxPort, customerId: number, blobs: DeletedFileBlob[], removeFromPlaylists: boolean): Promise<void> {
  if (blobs.length === 0) return;
  await enqueueFilesDeleted(outbox, trx, customerId, blobs, removeFromPlaylists);
  await enqueueFilesUntagged(trx, outbox, customerId, blobs.map((b) => b.fileId));
}

/** After commit: the deleted files' bytes. */
export async function removeDeletedBlobs(deps: Pick<FileDeps, "blobs" | "logger">, customerId: number, blobs: DeletedFileBlob[]): Promise<void> {
  if (blobs.length === 0) return;
  try {
    await deps.blobs.deleteBlobs(blobs);
  } catch (error) {
    // The rows are gone and the event is stored; a leftover blob is garbage, not an API failure.
    deps.logger.warn({ err: error, customerId, count: blobs.length }, "blob cleanup failed after file delete");
  }
}
