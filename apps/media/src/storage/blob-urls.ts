// `location` and `thumbnail` URLs of a file: gateway URLs signed with HMAC
// (served by BlobAccessService/GetPresignedBlob, with Range), for either store.
// The expiry is rounded up to a window so that a URL stays the same for a
// while and clients and CDNs can cache the bytes. A `location` also signs the
// file's name: the download answers `Content-Disposition: inline` with it
// (RFC 6266), so a saved copy keeps the name the file was uploaded under.
import { presignedBlobUrl, type UrlSigner } from "@signage/storage";
import type { BlobUrls } from "../files/blob-cleanup.js";

export interface BlobUrlOptions {
  signer: UrlSigner;
  /** "" for root-relative URLs. */
  baseUrl: string;
  windowMs: number;
  now?: () => number;
}

/** The columns of a file row its URLs come from. */
export interface FileUrlRow {
  storage_key: string | null;
  thumbnail_key: string | null;
  /** The file's name: the download's Content-Disposition file name (none when empty). */
  name?: string | null;
}

export interface FileBlobUrls extends BlobUrls {
  urlOfFile(row: FileUrlRow): { location?: string; thumbnail?: string };
}

/** Signed URLs remembered per key and name for the current window (a list page signs 40; the next read of the page, none). */
const REMEMBERED_URLS = 10_000;

/**
 * The expiry of a URL signed at `now`: the end of the window after the current one, so a URL is the
 * same string all through a window and still lives at least one whole window after it is handed out.
 */
export function windowedExpiry(now: number, windowMs: number): number {
  return (Math.floor(now / windowMs) + 2) * windowMs;
}

export function createBlobUrls(options: BlobUrlOptions): FileBlobUrls {
  const now = options.now ?? Date.now;
  const expiresAt = () => windowedExpiry(now(), options.windowMs);
  // A URL is a pure function of (key, name, expiry): within one window it is the same string.
  const remembered = new Map<string, { expires: number; url: string }>();
  const urlOf = (key: string | null | undefined, filename?: string | null) => {
    if (!key) return undefined;
    const expires = expiresAt();
    // A key has no newline (blob-keys.ts): key + "\n" + name names one (key, name) pair.
    const memo = filename ? `${key}\n${filename}` : key;
    const known = remembered.get(memo);
    if (known?.expires === expires) return known.url;
    const url = presignedBlobUrl(options.signer, options.baseUrl, key, expires, filename ? { filename } : {});
    if (remembered.size >= REMEMBERED_URLS) remembered.clear();
    remembered.set(memo, { expires, url });
    return url;
  };
  return {
    urlOf: (key, kind, filename) => urlOf(key, kind === "file" ? filename : undefined),
    urlOfFile: (row) => ({ location: urlOf(row.storage_key, row.name), thumbnail: urlOf(row.thumbnail_key) }),
  };
}
