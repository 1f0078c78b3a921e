// "A replace operation swaps all references from one file to another."
// Media owns no references: it checks both files, applies the team assignment
// mode, optionally deletes the old file, and publishes `media.file.replaced`
// for the services that hold references (content, playlists, channels).
// Used by `PUT /api/file/replaceFileReference` and by uploads with `fileIdToReplace`.
import { Code } from "@connectrpc/connect";
import type { Knex } from "knex";
import { serviceError } from "@signage/auth";
import { requireFile } from "./file-repository.js";
import { deleteFileRows, announceDeletedFiles } from "./file-delete.js";
import { publishFileReplaced, type DeletedFileBlob, type FileReplacedData, type TeamAssignmentMode } from "./file-events.js";
import type { FileDeps } from "./file-deps.js";
import type { MediaTeamHooks } from "./team-hooks.js";

export interface ReplaceFileInput {
  customerId: number;
  /** The file whose references move away (deleted when removeOldFile). */
  fileIdToReplace: string;
  /** The file that takes its place. */
  sourceFileId: string;
  removeOldFile: boolean;
  /** Default MERGE. */
  teamAssignmentMode?: TeamAssignmentMode;
}

export interface ReplaceOutcome {
  customerId: number;
  replaced: FileReplacedData;
  deleted: DeletedFileBlob[];
}

/** Checks and applies a replace in the caller's transaction; publish with announceReplace after commit. */
export async function replaceFileInTransaction(trx: Knex.Transaction, teams: MediaTeamHooks, input: ReplaceFileInput): Promise<ReplaceOutcome> {
  if (input.fileIdToReplace === input.sourceFileId) {
    throw serviceError(Code.InvalidArgument, "file.error.replaceSameFile", "fileIdToReplace and sourceFileId must be different files", { fileId: input.sourceFileId });
  }
  const mode = input.teamAssignmentMode ?? "MERGE";
  await requireFile(trx, input.customerId, input.fileIdToReplace, true);
  await requireFile(trx, input.customerId, input.sourceFileId, true);
  await teams.applyReplace(trx, input.fileIdToReplace, input.sourceFileId, mode);
  const deleted = input.removeOldFile ? await deleteFileRows(trx, teams, input.customerId, [input.fileIdToReplace]) : [];
  return {
    customerId: input.customerId,
    replaced: { fileIdToReplace: input.fileIdToReplace, sourceFileId: input.sourceFileId, removeOldFile: input.removeOldFile, teamAssignmentMode: mode },
    deleted,
  };
}

/** After commit: the replacement first (references move), then the old file's deletion. */
export async function announceReplace(deps: Pick<FileDeps, "bus" | "blobs" | "logger">, outcome: ReplaceOutcome): Promise<void> {
  await publishFileReplaced(deps.bus, outcome.customerId, outcome.replaced);
  await announceDeletedFiles(deps, outcome.customerId, outcome.deleted, false);
}

/** The whole replace in its own transaction (the replaceFileReference RPC). */
export async function replaceFile(deps: FileDeps, input: ReplaceFileInput): Promise<void> {
  const outcome = await deps.knex.transaction((trx) => replaceFileInTransaction(trx, deps.teams, input));
  await announceReplace(deps, outcome);
}
