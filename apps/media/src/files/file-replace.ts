// "A replace operation swaps all references from one file to another."
// Media owns no references: it checks both files, applies the team assignment
// mode, optionally deletes the old file, and announces `media.file.replaced`
// (through the outbox, in the replace's transaction) for the services that
// hold references (content, playlists, channels).
// Used by `PUT /api/file/replaceFileReference` and by uploads with `fileIdToReplace`.
import { Code } from "@connectrpc/connect";
import type { Knex } from "knex";
import { serviceError } from "@signage/auth";
import { requireFile } from "./file-repository.js";
import { announceDeletedFiles, deleteFileRows, removeDeletedBlobs } from "./file-delete.js";
import { enqueueFileReplaced, type DeletedFileBlob, type TeamAssignmentMode } from "./file-events.js";
import { announceFileTags } from "./file-tag-events.js";
import type { FileDeps } from "./file-deps.js";

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
  /** The old file's blobs when removeOldFile (their removal is scheduled in the transaction); removeDeletedBlobs after commit. */
  deleted: DeletedFileBlob[];
}

/**
 * Checks and applies a replace in the caller's transaction, with its events: the
 * replacement first (references move), then the old file's deletion.
 */
export async function replaceFileInTransaction(trx: Knex.Transaction, deps: Pick<FileDeps, "teams" | "outbox">, input: ReplaceFileInput): Promise<ReplaceOutcome> {
  if (input.fileIdToReplace === input.sourceFileId) {
    throw serviceError(Code.InvalidArgument, "file.error.replaceSameFile", "fileIdToReplace and sourceFileId must be different files", { fileId: input.sourceFileId });
  }
  const { teams, outbox } = deps;
  const mode = input.teamAssignmentMode ?? "MERGE";
  await requireFile(trx, input.customerId, input.fileIdToReplace, true);
  await requireFile(trx, input.customerId, input.sourceFileId, true);
  await teams.applyReplace(trx, input.fileIdToReplace, input.sourceFileId, mode);
  // MERGE / OVERWRITE may change the source file's teams: core's tag index follows.
  if (mode !== "KEEP_TARGET") await announceFileTags(trx, outbox, [input.sourceFileId]);
  await enqueueFileReplaced(outbox, trx, input.customerId, { fileIdToReplace: input.fileIdToReplace, sourceFileId: input.sourceFileId, removeOldFile: input.removeOldFile, teamAssignmentMode: mode });
  const deleted = input.removeOldFile ? await deleteFileRows(trx, teams, input.customerId, [input.fileIdToReplace]) : [];
  await announceDeletedFiles(trx, outbox, input.customerId, deleted, false);
  return { customerId: input.customerId, deleted };
}

/** The whole replace in its own transaction (the replaceFileReference RPC). */
export async function replaceFile(deps: FileDeps, input: ReplaceFileInput): Promise<void> {
  const outcome = await deps.knex.transaction((trx) => replaceFileInTransaction(trx, deps, input));
  await removeDeletedBlobs(deps, outcome.customerId, outcome.deleted);
}
