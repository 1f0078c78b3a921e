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

/** Signed URLs remembered per key for the current window (a list page signs 40; the next read of the page, none). */
const REMEMBERED_URLS = 10_000;

export function createBlobUrls(options: BlobUrlOptions): BlobUrls & { urlOfFile(row: { storage_key: string | null; thumbnail_key: string | null }): { location?: string; thumbnail?: string } } {
  const now = options.now ?? Date.now;
  const expiresAt = () => (Math.floor(now() / options.windowMs) + 2) * options.windowMs;
  // A URL is a pure function of (key, expiry): within one window it is the same string.
  const remembered = new Map<string, { expires: number; url: string }>();
  const urlOf = (key: string | null | undefined) => {
    if (!key) return undefined;
    const expires = expiresAt();
    const known = remembered.get(key);
    if (known?.expires === expires) return known.url;
    const url = presignedBlobUrl(options.signer, options.baseUrl, key, expires);
    if (remembered.size >= REMEMBERED_URLS) remembered.clear();
    remembered.set(key, { expires, url });
    return url;
  };
  return {
    urlOf: (key) => urlOf(key),
    urlOfFile: (row) => ({ location: urlOf(row.storage_key), thumbnail: urlOf(row.thumbnail_key) }),
  };
}
