// What storage offers the rest of media (and H4's file operations):
// `createMediaStorage(env)` -> { store (FileDeps.store), signer, urls
// (FileDeps.urls: location and thumbnail URLs) }. Bytes are deleted through
// blob intents (scheduleBlobRemoval in the owner's transaction, discardBlobs after).
export { createMediaStorage, type MediaStorage } from "./media-storage.js";
export { createBlobUrls } from "./blob-urls.js";
export { storageConfigFromEnv, type MediaStorageConfig } from "./storage-config.js";
export { fileBlobKey, thumbnailBlobKey, contentTypeOfKey } from "./blob-keys.js";
export { StreamedRequest, type StreamedPart } from "./streamed-request.js";
export { blobAccessService } from "./blob-access-service.js";
export { adoptBlobIntents, discardBlobs, recordBlobIntents, scheduleBlobRemoval } from "./blob-intents.js";
export { sweepBlobIntents, type BlobIntentSweepOptions } from "./blob-intent-sweeper.js";
