// Facts media announces about files, for the services that reference them
// (content/playlists in core swap or drop references; storage drops blobs).
// Enqueued in the transaction of the change through the outbox: published
// after it commits, never for a rolled-back change, not lost in a crash.
import type { Knex } from "knex";
import type { OutboxPort } from "@signage/runtime";

export const FILE_DELETED = "media.file.deleted";
export const FILE_REPLACED = "media.file.replaced";

/** A deleted file's blobs, for whoever removes the bytes. */
export interface DeletedFileBlob {
  fileId: string;
  storageKey: string | null;
  thumbnailKey: string | null;
}

/**
 * `media.file.deleted` data. `removeFromPlaylists`: "true also removes direct file slides
 * from playlists only" (document 1, Delete file); false leaves references to the consumer's rules.
 */
export interface FileDeletedData {
  fileIds: string[];
  removeFromPlaylists: boolean;
  blobs: DeletedFileBlob[];
}

/** `media.file.replaced` data: every reference to `fileIdToReplace` now points at `sourceFileId`. */
export interface FileReplacedData {
  fileIdToReplace: string;
  sourceFileId: string;
  removeOldFile: boolean;
  teamAssignmentMode: TeamAssignmentMode;
}

export type TeamAssignmentMode = "MERGE" | "OVERWRITE" | "KEEP_TARGET";

/** A `media.file.deleted` event carries at most this many files, so no single message grows without bound. */
export const FILE_DELETED_SLICE = 500;

export async function enqueueFilesDeleted(outbox: OutboxPort, trx: Knex.Transaction, customerId: number, blobs: DeletedFileBlob[], removeFromPlaylists: boolean): Promise<void> {
  for (let i = 0; i < blobs.length; i += FILE_DELETED_SLICE) {
    const slice = blobs.slice(i, i + FILE_DELETED_SLICE);
    await outbox.enqueue<FileDeletedData>(trx, { type: FILE_DELETED, customerId, data: { fileIds: slice.map((b) => b.fileId), removeFromPlaylists, blobs: slice } });
  }
}

export async function enqueueFileReplaced(outbox: OutboxPort, trx: Knex.Transaction, customerId: number, data: FileReplacedData): Promise<void> {
  await outbox.enqueue<FileReplacedData>(trx, { type: FILE_REPLACED, customerId, data });
}
