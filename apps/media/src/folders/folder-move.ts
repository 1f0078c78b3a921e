// "Move files and folders" in one transaction. Paths (the recursive-search column
// of folders and files) are rewritten for the whole moved subtree:
// new path = target path || the old path from the moved folder down.
import { Code, type HandlerContext } from "@connectrpc/connect";
import { requireAuth, serviceError } from "@signage/auth";
import type { FileFolder } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { batchTenant } from "../files/caller.js";
import { requireFile } from "../files/file-repository.js";
import type { FileDeps } from "../files/file-deps.js";
import { nextFileUpdateDate } from "../files/next-update-date.js";
import { lockSubtree, requireFolder, requireStoredFolder } from "./folder-repository.js";
import { readFolder } from "./folder-list.js";
import { assertMayCreateInRootFolder } from "./root-creation.js";
import { unique, type BatchInput } from "./folder-delete.js";

export async function moveBatch(ctx: HandlerContext, deps: FileDeps, targetId: string | undefined, batch: BatchInput): Promise<FileFolder> {
  const auth = requireAuth(ctx);
  // "Batch operations ... require customerId and cannot run across tenants."
  const customerId = batchTenant(auth);
  if (!targetId?.trim()) throw serviceError(Code.InvalidArgument, "fileFolder.error.targetRequired", "targetFolder.id is required", { parameter: "targetFolder" });
  const access = await deps.teams.access?.(auth);
  await deps.knex.transaction(async (trx) => {
    // Locked as it is read: a concurrent delete of the target is waited for (then 404), its path is current.
    // A target the caller's teams hide is not found, filtered or not.
    const target = await requireStoredFolder(trx, customerId, targetId.trim(), true, access);
    const files = [];
    for (const id of unique(batch.fileIds)) files.push(await requireFile(trx, customerId, id, true));
    const folders = [];
    for (const id of unique(batch.folderIds)) folders.push(await requireFolder(trx, customerId, id, true));
    for (const folder of folders) {
      if (folder.parent_id === null) throw serviceError(Code.InvalidArgument, "fileFolder.error.rootNotMovable", "The root folder cannot be moved", { fileFolderId: folder.id });
    }
    // Moving into the root creates there: the root rule of creates (isFileAndFolderCreationEnabledInRootForTeamUsers,
    // a root the caller's teams hold read-only), not the write check of a folder, which answers 404 for a root
    // without teams where the customer shows team users only team items.
    if (target.parent_id === null) await assertMayCreateInRootFolder(trx, deps.teams, auth, customerId, target.id);
    else await deps.teams.assertWritable(trx, auth, "fileFolder", [target.id]);
    await deps.teams.assertWritable(trx, auth, "fileFolder", folders.map((f) => f.id));
    await deps.teams.assertWritable(trx, auth, "file", files.map((f) => f.id));
    // After the team checks: a folder (or target) the caller's teams hide is not found, never "into itself" (which tells where it is).
    for (const folder of folders) {
      if (target.path.includes(folder.id)) {
        throw serviceError(Code.InvalidArgument, "fileFolder.error.moveIntoItself", "A folder cannot be moved into itself or one of its subfolders", { fileFolderId: folder.id, targetFolderId: target.id });
      }
    }
    // Each moved subtree, whole (folders that join it while this waits included), before its paths are
    // rewritten: a folder committed into it after the rewrite's snapshot kept its old path, and so did
    // every file uploaded into it later. Locked, it cannot grow until commit.
    for (const folder of folders) await lockSubtree(trx, customerId, folder.id);
    if (files.length) {
      await trx("file").whereIn("id", files.map((f) => f.id)).update({ file_folder_id: target.id, path: target.path, update_date: nextFileUpdateDate(trx) });
    }
    for (const folder of folders) {
      await trx("file_folder").where({ id: folder.id }).update({ parent_id: target.id, update_date: trx.fn.now() });
      const rewrite = "path = ?::uuid[] || path[array_position(path, ?::uuid):]";
      await trx.raw(`UPDATE file_folder SET ${rewrite} WHERE customer_id = ? AND path @> ARRAY[?]::uuid[]`, [target.path, folder.id, customerId, folder.id]);
      await trx.raw(`UPDATE file SET ${rewrite} WHERE customer_id = ? AND path @> ARRAY[?]::uuid[]`, [target.path, folder.id, customerId, folder.id]);
    }
  });
  return readFolder(ctx, deps, targetId.trim());
}
