// Removing a deleted file's bytes is storage's job (H5: apps/media/src/storage).
// Media calls this port after the rows are gone; the default leaves the blobs to
// the `media.file.deleted` event's consumers (its data lists every blob key).
import type { DeletedFileBlob } from "./file-events.js";

export interface BlobCleanup {
  deleteBlobs(blobs: DeletedFileBlob[]): Promise<void>;
}

/** TODO(storage): replace with the blob store's delete once apps/media/src/storage exports it. */
export const leaveBlobsToDeletedEventConsumers: BlobCleanup = {
  async deleteBlobs() {},
};

/** Download URLs (`location`, `thumbnail`, `firstFileThumbnail`) from blob keys; storage's job too. */
export interface BlobUrls {
  /** The URL of a stored blob; undefined renders the field empty. */
  urlOf(key: string, kind: "file" | "thumbnail"): string | undefined;
}

/** TODO(storage): replace with the URL builder apps/media/src/storage (or uploads) exports. */
export const noBlobUrlsYet: BlobUrls = {
  urlOf: () => undefined,
};
