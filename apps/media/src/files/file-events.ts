// Facts media publishes about files, for the services that reference them
// (content/playlists in core swap or drop references; storage drops blobs).
// Published after the transaction commits, never for a rolled-back change.
import type { EventBus } from "@signage/events";

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

export async function publishFilesDeleted(bus: EventBus, customerId: number, blobs: DeletedFileBlob[], removeFromPlaylists: boolean): Promise<void> {
  if (blobs.length === 0) return;
  // Large folder deletes go out in slices so no single message grows without bound.
  for (let i = 0; i < blobs.length; i += 500) {
    const slice = blobs.slice(i, i + 500);
    await bus.publish<FileDeletedData>({ type: FILE_DELETED, customerId, data: { fileIds: slice.map((b) => b.fileId), removeFromPlaylists, blobs: slice } });
  }
}

export async function publishFileReplaced(bus: EventBus, customerId: number, data: FileReplacedData): Promise<void> {
  await bus.publish<FileReplacedData>({ type: FILE_REPLACED, customerId, data });
}
