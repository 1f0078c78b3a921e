// Deleting a file's bytes (file and thumbnail) after its row is gone.
import type { BlobStore } from "@signage/storage";
import type { BlobCleanup } from "../files/blob-cleanup.js";

export function createBlobDeletion(store: BlobStore): BlobCleanup & { deleteKeys(keys: Array<string | null | undefined>): Promise<void> } {
  const deleteKeys = async (keys: Array<string | null | undefined>) => {
    await Promise.all(keys.filter((k): k is string => Boolean(k)).map((k) => store.delete(k)));
  };
  return {
    deleteKeys,
    async deleteBlobs(blobs) {
      await deleteKeys(blobs.flatMap((b) => [b.storageKey, b.thumbnailKey]));
    },
  };
}
