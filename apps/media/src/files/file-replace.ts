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
  if (input.fileIdToReplace === input.sourceFileId) throw sameFile(input.sourceFileId);
  const { teams, outbox } = deps;
  const mode = input.teamAssignmentMode ?? "MERGE";
  // From here on the rows' ids, not the caller's spelling: a UUID in capitals names the same file,
  // so it must neither pass the check above (the file would be "replaced" by itself, then deleted)
  // nor reach the event, whose consumers match references by the stored (lowercase) id.
  const fileIdToReplace = (await requireFile(trx, input.customerId, input.fileIdToReplace, true)).id;
  const sourceFileId = (await requireFile(trx, input.customerId, input.sourceFileId, true)).id;
  if (fileIdToReplace === sourceFileId) throw sameFile(sourceFileId);
  await teams.applyReplace(trx, fileIdToReplace, sourceFileId, mode);
  // MERGE / OVERWRITE may change the source file's teams: core's tag index follows.
  if (mode !== "KEEP_TARGET") await announceFileTags(trx, outbox, [sourceFileId]);
  await enqueueFileReplaced(outbox, trx, input.customerId, { fileIdToReplace, sourceFileId, removeOldFile: input.removeOldFile, teamAssignmentMode: mode });
  const deleted = input.removeOldFile ? await deleteFileRows(trx, teams, input.customerId, [fileIdToReplace]) : [];
  await announceDeletedFiles(trx, outbox, input.customerId, deleted, false);
  return { customerId: input.customerId, deleted };
}

function sameFile(fileId: string) {
  return serviceError(Code.InvalidArgument, "file.error.replaceSameFile", "fileIdToReplace and sourceFileId must be different files", { fileId });
}

/** The whole replace in its own transaction (the replaceFileReference RPC). */
export async function replaceFile(deps: FileDeps, input: ReplaceFileInput): Promise<void> {
  const outcome = await deps.knex.transaction((trx) => replaceFileInTransaction(trx, deps, input));
  await removeDeletedBlobs(deps, outcome.customerId, outcome.deleted);
}
