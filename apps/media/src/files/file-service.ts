// FileService: document 1 "Endpoints / Files" (uploads and team assignment
// updates are served by their own services).
import { Code, type ServiceImpl } from "@connectrpc/connect";
import { requireAuth, serviceError } from "@signage/auth";
import { type Peers, requireParameter } from "@signage/runtime";
import { TeamAssignmentMode, type FileService } from "@signage/contracts/signage/media/v1/file_pb";
import { deleteFile } from "../folders/folder-delete.js";
import { bulkTags, bulkValidity } from "./file-bulk.js";
import { listFiles } from "./file-list.js";
import { fileSummary } from "./file-summary.js";
import { renameFile, updateFile } from "./file-update.js";
import { replaceFile } from "./file-replace.js";
import { storageStatistics } from "./storage-statistics.js";
import { requireFile } from "./file-repository.js";
import type { TeamAssignmentMode as Mode } from "./file-events.js";
import type { FileDeps } from "./file-deps.js";

const MODES: Record<TeamAssignmentMode, Mode> = {
  [TeamAssignmentMode.UNSPECIFIED]: "MERGE",
  [TeamAssignmentMode.MERGE]: "MERGE",
  [TeamAssignmentMode.OVERWRITE]: "OVERWRITE",
  [TeamAssignmentMode.KEEP_TARGET]: "KEEP_TARGET",
};

/** The mode asked for (MERGE when omitted); a number the contract does not define is a 400, never read as MERGE. */
function modeOf(value: TeamAssignmentMode | undefined): Mode {
  const mode = MODES[value ?? TeamAssignmentMode.MERGE];
  if (mode === undefined) {
    throw serviceError(Code.InvalidArgument, "file.error.invalidValue", `teamAssignmentMode ${value} is not a defined value`, { field: "teamAssignmentMode", value: value ?? null });
  }
  return mode;
}

export function fileService(deps: FileDeps, peers?: Peers): Partial<ServiceImpl<typeof FileService>> {
  const bulkDeps = { ...deps, peers };
  return {
    listFiles: (req, ctx) => listFiles(ctx, deps, req.query),
    async updateFile(req, ctx) {
      return { file: await updateFile(ctx, deps, req.fileId, req.file) };
    },
    async renameFile(req, ctx) {
      await renameFile(ctx, deps, requireParameter(req.fileId, "fileId"), req.newName);
      return {};
    },
    async deleteFile(req, ctx) {
      await deleteFile(ctx, deps, req.fileId, req.removeFromPlaylists ?? false);
      return {};
    },
    getFileSummary: (req, ctx) => fileSummary(ctx, deps, req),
    getStorageStatistics: (_req, ctx) => storageStatistics(ctx, deps, peers),
    async replaceFileReference(req, ctx) {
      const auth = requireAuth(ctx);
      const fileIdToReplace = requireParameter(req.fileIdToReplace, "fileIdToReplace");
      // The tenant of the file replaced, among those the caller sees (an ADMIN or a network owner
      // without customerId included, as for PUT /api/file/{id}); the source must be in the same one.
      const target = await requireFile(deps.knex, auth.scope, fileIdToReplace);
      const input = {
        customerId: Number(target.customer_id),
        fileIdToReplace,
        sourceFileId: requireParameter(req.sourceFileId, "sourceFileId"),
        removeOldFile: req.removeOldFile ?? false,
        teamAssignmentMode: modeOf(req.teamAssignmentMode),
      };
      // The source is a file of that tenant before its teams are read: another tenant's id is
      // file.error.notFound whatever teams it holds there (a team lookup first told them apart).
      const source = await requireFile(deps.knex, input.customerId, input.sourceFileId);
      // The rows' ids, not the caller's spelling: assignments are keyed by the stored (lowercase) id, so a
      // UUID in capitals found no teams, and a read-only or hidden file passed as one without teams.
      await deps.teams.assertWritable(deps.knex, auth, "file", [target.id, source.id]);
      await replaceFile(deps, input);
      return {};
    },
    async addFileTags(req, ctx) {
      await bulkTags(bulkDeps, ctx, "add", req.search, req.tags);
      return {};
    },
    async removeFileTags(req, ctx) {
      await bulkTags(bulkDeps, ctx, "remove", req.search, req.tags);
      return {};
    },
    async setFileTags(req, ctx) {
      await bulkTags(bulkDeps, ctx, "set", req.search, req.tags);
      return {};
    },
    async setFileValidity(req, ctx) {
      const from = req.validFrom === undefined ? undefined : Number(req.validFrom);
      const to = req.validTo === undefined ? undefined : Number(req.validTo);
      await bulkValidity(bulkDeps, ctx, req.search, from, to);
      return {};
    },
  };
}
