// FileFolderService: document 1 "Endpoints / Folders" (team assignment updates are
// served by the teams service; cloud sync answers 501 after validation).
import { Code, type ServiceImpl } from "@connectrpc/connect";
import { requireAuth, serviceError } from "@signage/auth";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
import type { FileFolderService } from "@signage/contracts/signage/media/v1/file_folder_pb";
import type { FileDeps } from "../files/file-deps.js";
import { createFolder, checkFolderName } from "./folder-create.js";
import { batchOf, deleteFolder, removeBatch } from "./folder-delete.js";
import { listFolders } from "./folder-list.js";
import { FOLDER_SINGLE_SELECT } from "./file-folder-resource.js";
import { moveBatch } from "./folder-move.js";
import { folderNotFound, requireFolder } from "./folder-repository.js";
import { FOLDER_TYPE_FILTERED } from "./folder-row.js";
import { createSyncedFolder, onSyncedFolder, syncNotImplemented } from "./folder-sync.js";
import { missingParameter } from "@signage/runtime";

export function fileFolderService(deps: FileDeps): Partial<ServiceImpl<typeof FileFolderService>> {
  const { knex } = deps;
  return {
    async listFileFolders(req, ctx) {
      await deps.listedRoots.ensureFor(ctx, requireAuth(ctx));
      return listFolders(ctx, deps, req.query);
    },

    async createFileFolder(req, ctx) {
      return { folder: await createFolder(ctx, deps, req) };
    },
    async createFilteredFileFolder(req, ctx) {
      return { folder: await createFolder(ctx, deps, { ...req, quickFilterId: req.quickFilterId ?? "" }) };
    },
    createSyncedAlphaDriveFolder: (req, ctx) => createSyncedFolder(ctx, deps, "alpha", req),
    createSyncedBetaDriveFolder: (req, ctx) => createSyncedFolder(ctx, deps, "beta", req),
    createSyncedGammaFolder: (req, ctx) => createSyncedFolder(ctx, deps, "gamma", req),
    // "GET /api/fileFolder/gammaFolders?credentialId=<id>&folderId=root": both shown, both required ("root" for the top).
    async browseGammaFolders(req) {
      if (!req.credentialId?.trim()) throw missingParameter("credentialId");
      if (!req.folderId?.trim()) throw missingParameter("folderId");
      return syncNotImplemented("Browsing gamma folders");
    },
    // "PUT /api/fileFolder/updateDesignExportFormat?folderId=<id>&exportFormat=<fmt>&exportStrategy=<strategy>".
    async updateDesignExportFormat(req, ctx) {
      for (const [name, value] of [["exportFormat", req.exportFormat], ["exportStrategy", req.exportStrategy]] as const) {
        if (!value?.trim()) throw missingParameter(name);
      }
      return onSyncedFolder(ctx, deps, req.folderId, "Re-exporting a gamma design folder", "gamma");
    },

    async renameFileFolder(req, ctx) {
      const auth = requireAuth(ctx);
      if (!req.folderId?.trim()) throw missingParameter("folderId");
      const name = checkFolderName(req.newName, "newName");
      await knex.transaction(async (trx) => {
        const folder = await requireFolder(trx, auth.scope, req.folderId.trim(), true);
        if (folder.parent_id === null) throw serviceError(Code.InvalidArgument, "fileFolder.error.rootNotRenamable", "The root folder has no name", { fileFolderId: folder.id });
        await deps.teams.assertWritable(trx, auth, "fileFolder", [folder.id]);
        await trx("file_folder").where({ id: folder.id }).update({ name, update_date: trx.fn.now() });
      });
      return {};
    },
    async deleteFileFolder(req, ctx) {
      await deleteFolder(ctx, deps, req.folderId, req.removeFromPlaylists ?? false);
      return {};
    },
    async moveBatchToFolder(req, ctx) {
      return { folder: await moveBatch(ctx, deps, req.batch?.targetFolder?.id, batchOf(req.batch)) };
    },
    async removeBatch(req, ctx) {
      await removeBatch(ctx, deps, batchOf(req.batch), req.removeFromPlaylists ?? false);
      return {};
    },

    async getFileFolderBreadcrumb(req, ctx) {
      const auth = requireAuth(ctx);
      if (!req.folderId?.trim()) throw missingParameter("folderId");
      const folder = await requireFolder(knex, auth.scope, req.folderId.trim());
      const { content } = await listFolders(ctx, deps, { size: folder.path.length, select: FOLDER_SINGLE_SELECT } as ListQuery, { extend: (qb) => qb.whereRaw("f.id = any(?::uuid[])", [folder.path]) });
      // A folder the caller's teams hide is as unknown here as everywhere else (its hidden ancestors are left out).
      if (!content.some((f) => f.id === folder.id)) throw folderNotFound(folder.id);
      const order = new Map(folder.path.map((id, i) => [id, i]));
      return { fileFolders: content.sort((a, b) => order.get(a.id)! - order.get(b.id)!) };
    },

    async setCleanupOutdatedFiles(req, ctx) {
      const auth = requireAuth(ctx);
      if (!req.folderId?.trim()) throw missingParameter("folderId");
      if (req.cleanupOutdatedFiles === undefined) throw missingParameter("cleanupOutdatedFiles");
      await knex.transaction(async (trx) => {
        const folder = await requireFolder(trx, auth.scope, req.folderId!.trim(), true);
        // First: a folder the caller's teams hide is not found, filtered or not (a 400 would tell it exists).
        await deps.teams.assertWritable(trx, auth, "fileFolder", [folder.id]);
        if (folder.file_folder_type === FOLDER_TYPE_FILTERED) {
          throw serviceError(Code.InvalidArgument, "fileFolder.error.filteredFolder", "A filtered folder holds no files to clean up", { fileFolderId: folder.id });
        }
        await trx("file_folder").where({ id: folder.id }).update({ cleanup_outdated_files: req.cleanupOutdatedFiles, update_date: trx.fn.now() });
      });
      return {};
    },

    synchronizeFileFolder: (req, ctx) => onSyncedFolder(ctx, deps, req.folderId, "Synchronizing a folder"),
    async setAutoSync(req, ctx) {
      if (req.autoSync === undefined) throw missingParameter("autoSync");
      return onSyncedFolder(ctx, deps, req.folderId, "Setting auto-sync");
    },
    updateSyncedAlphaDriveFolderSettings: (req, ctx) => onSyncedFolder(ctx, deps, req.folderId, "Updating alpha synced folder settings", "alpha"),
    updateSyncedBetaDriveFolderSettings: (req, ctx) => onSyncedFolder(ctx, deps, req.folderId, "Updating beta synced folder settings", "beta"),
    setIgnoredSubfolders: (req, ctx) => onSyncedFolder(ctx, deps, req.folderId, "Setting ignored subfolders"),
    detachAlphaCredential: (req, ctx) => onSyncedFolder(ctx, deps, req.folderId, "Detaching an alpha credential", "alpha"),
    detachBetaTenant: (req, ctx) => onSyncedFolder(ctx, deps, req.folderId, "Detaching a beta tenant", "beta"),
  };
}
