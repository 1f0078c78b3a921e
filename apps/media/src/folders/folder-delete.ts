// "Folder deletion removes every contained folder and file recursively." The root
// "cannot be deleted". Single deletes and removeBatch share one transaction shape:
// rows, the events announcing them (outbox) and the removal intents of their
// blobs together; the bytes after commit (or by the blob intent sweep).
import { Code, type HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import { requireAuth, serviceError, type AuthContext } from "@signage/auth";
import { enqueueQuickFilterUsage } from "@signage/runtime";
import { batchTenant } from "../files/caller.js";
import { announceDeletedFiles, deleteFileRows, deleteFilesUnder, removeDeletedBlobsAfterResponse } from "../files/file-delete.js";
import { requireFile } from "../files/file-repository.js";
import type { DeletedFileBlob } from "../files/file-events.js";
import type { FileDeps } from "../files/file-deps.js";
import { customerIdOf, lockSubtree, requireFolder } from "./folder-repository.js";
import type { FolderRow } from "./folder-row.js";

export function rootNotDeletable(id: string) {
  return serviceError(Code.InvalidArgument, "fileFolder.error.rootNotDeletable", "The root folder cannot be deleted", { fileFolderId: id });
}

/**
 * Deletes a folder subtree (folders and files) in the caller's transaction. With `auth` (a caller's
 * delete), every folder and file of the subtree must be writable for the caller's teams: a team user
 * whose team holds a file "readOnly" cannot delete it by deleting its folder.
 */
export async function deleteFolderTree(trx: Knex.Transaction, deps: FileDeps, folder: FolderRow, auth?: AuthContext): Promise<DeletedFileBlob[]> {
  if (folder.parent_id === null) throw rootNotDeletable(folder.id);
  const customerId = customerIdOf(folder);
  // The subtree's folders first: an upload or folder create into one of them that is
  // mid-transaction commits before the files below are read (so its file is deleted, announced
  // and its bytes scheduled like the others); a later one waits, then finds the folder gone (404).
  // Folders that joined the subtree while this waited are locked too (lockSubtree).
  const locked = (await lockSubtree(trx, customerId, folder.id)).map((id) => ({ id }));
  if (auth && deps.teams.assertTreeWritable) {
    // After the lock: no file or folder can enter the subtree before the delete.
    await deps.teams.assertTreeWritable(trx, auth, folder.id, async () => {
      const files: { id: string }[] = await trx("file").where({ customer_id: customerId }).whereRaw("path @> ARRAY[?]::uuid[]", [folder.id]).select("id");
      return { folders: locked.map((f) => f.id), files: files.map((f) => f.id) };
    });
  }
  const blobs = await deleteFilesUnder(trx, deps.teams, customerId, folder.id);
  const folders: { id: string; quick_filter_id: string | null }[] = await trx("file_folder")
    .where({ customer_id: customerId })
    .whereRaw("path @> ARRAY[?]::uuid[]", [folder.id])
    .delete()
    .returning(["id", "quick_filter_id"]);
  await deps.teams.removeAll(trx, "fileFolder", folders.map((f) => f.id));
  for (const f of folders) {
    if (f.quick_filter_id) await enqueueQuickFilterUsage(deps.outbox, trx, { customerId, quickFilterId: f.quick_filter_id, usedByType: "FILE_FOLDER", usedById: f.id, used: false });
  }
  return blobs;
}

export async function deleteFolder(ctx: HandlerContext, deps: FileDeps, folderId: string, removeFromPlaylists: boolean): Promise<void> {
  const auth = requireAuth(ctx);
  const { customerId, blobs } = await deps.knex.transaction(async (trx) => {
    const folder = await requireFolder(trx, auth.scope, folderId, true);
    await deps.teams.assertWritable(trx, auth, "fileFolder", [folder.id]);
    const customerId = customerIdOf(folder);
    const blobs = await deleteFolderTree(trx, deps, folder, auth);
    await announceDeletedFiles(trx, deps.outbox, customerId, blobs, removeFromPlaylists);
    return { customerId, blobs };
  });
  await removeDeletedBlobsAfterResponse(deps, customerId, blobs);
}

export async function deleteFile(ctx: HandlerContext, deps: FileDeps, fileId: string, removeFromPlaylists: boolean): Promise<void> {
  const auth = requireAuth(ctx);
  const { customerId, blobs } = await deps.knex.transaction(async (trx) => {
    const file = await requireFile(trx, auth.scope, fileId, true);
    await deps.teams.assertWritable(trx, auth, "file", [file.id]);
    const customerId = Number(file.customer_id);
    const blobs = await deleteFileRows(trx, deps.teams, customerId, [file.id]);
    await announceDeletedFiles(trx, deps.outbox, customerId, blobs, removeFromPlaylists);
    return { customerId, blobs };
  });
  await removeDeletedBlobsAfterResponse(deps, customerId, blobs);
}

export interface BatchInput {
  fileIds: string[];
  folderIds: string[];
}

/** Files and folders one batch may name: each is read and locked in the batch's one transaction. */
const MAX_BATCH_ITEMS = 1000;

/**
 * The batch body of moveBatchToFolder / removeBatch; more than MAX_BATCH_ITEMS ids is a 400 (split it).
 * A batch naming nothing is a 400 too: a misspelt key (`fileIDs`), which the edge drops, or a missing
 * body would otherwise answer a success that moved or deleted nothing.
 */
export function batchOf(body: { fileIds?: string[]; folderIds?: string[] } | undefined): BatchInput {
  const batch = { fileIds: body?.fileIds ?? [], folderIds: body?.folderIds ?? [] };
  const items = batch.fileIds.length + batch.folderIds.length;
  if (items > MAX_BATCH_ITEMS) {
    throw serviceError(Code.InvalidArgument, "fileFolder.error.batchTooLarge", `A batch names at most ${MAX_BATCH_ITEMS} files and folders (got ${items}); send several batches`, { maxItems: MAX_BATCH_ITEMS, items });
  }
  if (unique(batch.fileIds).length + unique(batch.folderIds).length === 0) {
    throw serviceError(Code.InvalidArgument, "fileFolder.error.batchEmpty", "The batch names no files or folders (fileIds, folderIds): nothing would change", { parameters: ["fileIds", "folderIds"] });
  }
  return batch;
}

/** Every id must name a file/folder of the tenant: one unknown id fails the whole batch (404). */
export async function removeBatch(ctx: HandlerContext, deps: FileDeps, batch: BatchInput, removeFromPlaylists: boolean): Promise<void> {
  const auth = requireAuth(ctx);
  // "Batch operations ... require customerId and cannot run across tenants."
  const customerId = batchTenant(auth);
  const blobs = await deps.knex.transaction(async (trx) => {
    const deleted = await removeBatchInTransaction(trx, deps, auth, customerId, batch);
    await announceDeletedFiles(trx, deps.outbox, customerId, deleted, removeFromPlaylists);
    return deleted;
  });
  await removeDeletedBlobsAfterResponse(deps, customerId, blobs);
}

async function removeBatchInTransaction(trx: Knex.Transaction, deps: FileDeps, auth: AuthContext, customerId: number, batch: BatchInput): Promise<DeletedFileBlob[]> {
  const files = [];
  for (const id of unique(batch.fileIds)) files.push(await requireFile(trx, customerId, id, true));
  const folders = [];
  for (const id of unique(batch.folderIds)) folders.push(await requireFolder(trx, customerId, id, true));
  for (const f of folders) if (f.parent_id === null) throw rootNotDeletable(f.id);
  await deps.teams.assertWritable(trx, auth, "file", files.map((f) => f.id));
  await deps.teams.assertWritable(trx, auth, "fileFolder", folders.map((f) => f.id));
  const blobs = await deleteFileRows(trx, deps.teams, customerId, files.map((f) => f.id));
  for (const folder of folders) {
    // A folder already removed as part of an earlier one's subtree is skipped.
    const still = await trx("file_folder").where({ id: folder.id }).first();
    if (still) blobs.push(...(await deleteFolderTree(trx, deps, folder, auth)));
  }
  return blobs;
}

export function unique(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.trim()).filter(Boolean))];
}
