// `location` and `thumbnail` URLs of a file: gateway URLs signed with HMAC
// (served by BlobAccessService/GetPresignedBlob, with Range), for either store.
// The expiry is rounded up to a window so that a URL stays the same for a
// while and clients and CDNs can cache the bytes.
import { presignedBlobUrl, type UrlSigner } from "@signage/storage";
import type { BlobUrls } from "../files/blob-cleanup.js";

export interface BlobUrlOptions {
  signer: UrlSigner;
  /** "" for root-relative URLs. */
  baseUrl: string;
  windowMs: number;
  now?: () => number;
}

export function createBlobUrls(options: BlobUrlOptions): BlobUrls & { urlOfFile(row: { storage_key: string | null; thumbnail_key: string | null }): { location?: string; thumbnail?: string } } {
  const now = options.now ?? Date.now;
  const expiresAt = () => (Math.floor(now() / options.windowMs) + 2) * options.windowMs;
  const urlOf = (key: string | null | undefined) => (key ? presignedBlobUrl(options.signer, options.baseUrl, key, expiresAt()) : undefined);
  return {
    urlOf: (key) => urlOf(key),
    urlOfFile: (row) => ({ location: urlOf(row.storage_key), thumbnail: urlOf(row.thumbnail_key) }),
  };
}
