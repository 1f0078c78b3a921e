// The blob store port: media's bytes (files, thumbnails, upload parts, app
// packages) live behind it. Adapters: filesystem (default) and S3.
import type { Readable } from "node:stream";

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive; omitted: to the end. */
  end?: number;
}

export interface BlobInfo {
  size: number;
  contentType?: string;
}

export interface BlobRead extends BlobInfo {
  body: Readable;
  /** The range actually served (absent when the whole blob is served). */
  range?: { start: number; end: number };
}

export interface BlobStore {
  /** Streams `body` into `key` (replacing it); resolves once durable. */
  put(key: string, body: Readable | Uint8Array, options?: { contentType?: string; size?: number }): Promise<BlobInfo>;
  /** Streams the blob (or a byte range of it); rejects with BlobNotFoundError. */
  get(key: string, range?: ByteRange): Promise<BlobRead>;
  /** Size and type, or undefined when absent. */
  stat(key: string): Promise<BlobInfo | undefined>;
  /** Idempotent. */
  delete(key: string): Promise<void>;
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`blob not found: ${key}`);
    this.name = "BlobNotFoundError";
  }
}
