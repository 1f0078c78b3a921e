// What uploads need, passed in by the module.
import type { Peers } from "@signage/runtime";
import type { BlobStore } from "@signage/storage";
import type { FileDeps } from "../files/file-deps.js";
import type { MediaStorage } from "../storage/media-storage.js";

export interface UploadDeps {
  /** The file operations' deps (knex, outbox, teams, blobs, urls, newId, logger). */
  files: FileDeps;
  store: BlobStore;
  storage: MediaStorage;
  /** Core, for the customer's storageSize when the tenant replica does not carry it. */
  peers?: Peers;
  now?: () => number;
}

/** "Simple upload (POST /api/file): below 200 MB per file". */
export const SIMPLE_UPLOAD_LIMIT = 200 * 1024 * 1024;
/** "Chunked upload total size: 1 byte to 10 GB (10737418240 bytes)". */
export const CHUNKED_MAX_SIZE = 10_737_418_240;
/** "Chunk count: 1 to 10000". */
export const MAX_CHUNKS = 10_000;
/**
 * A complete that has held its session this long died with its process (assembling and reading
 * 10 GB back takes minutes, not an hour): the session is open again, to cancel ("any time") or complete.
 */
export const COMPLETE_CLAIM_TTL_MS = 60 * 60 * 1000;
/** Thumbnails are small pictures; anything larger is a client mistake. */
export const THUMBNAIL_LIMIT = 20 * 1024 * 1024;
