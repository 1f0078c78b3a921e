// Media's storage composition: the blob store picked by STORAGE_URL, the URL
// signer, and what the file operations need from storage (download URLs).
import { createBlobStoreFromUrl, UrlSigner, type BlobStore } from "@signage/storage";
import { createBlobUrls } from "./blob-urls.js";
import { storageConfigFromEnv, type MediaStorageConfig } from "./storage-config.js";

export interface MediaStorage {
  config: MediaStorageConfig;
  store: BlobStore;
  signer: UrlSigner;
  /** For FileDeps.urls: `location`/`thumbnail` from blob keys. */
  urls: ReturnType<typeof createBlobUrls>;
}

export function createMediaStorage(env: Record<string, string | undefined>): MediaStorage {
  const config = storageConfigFromEnv(env);
  const signer = new UrlSigner(config.signingSecret);
  const store = createBlobStoreFromUrl(config.storageUrl, { signer, env });
  return {
    config,
    store,
    signer,
    urls: createBlobUrls({ signer, baseUrl: config.publicBaseUrl, windowMs: config.downloadUrlWindowMs }),
  };
}
