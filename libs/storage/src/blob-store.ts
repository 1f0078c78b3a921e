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
  put(key: string, body: Readable | Uint8Array, options?: { contentType?: string; size?: number; maxSize?: number }): Promise<BlobInfo>;
  /** Streams the blob (or a byte range of it); rejects with BlobNotFoundError (or RangeNotSatisfiableError). */
  get(key: string, range?: ByteRange): Promise<BlobRead>;
  /** Size and type, or undefined when absent. */
  stat(key: string): Promise<BlobInfo | undefined>;
  /** Idempotent. */
  delete(key: string): Promise<void>;
  /**
   * Deletes every blob whose key starts with `prefix`, a folder of keys ending
   * with "/" (`files/42/` never touches `files/420/`); idempotent. Unfinished
   * multipart uploads are not blobs: abort them by their upload id.
   */
  deletePrefix(prefix: string): Promise<void>;
  /** Multipart uploads (chunked upload sessions). */
  readonly multipart: MultipartStore;
  /** A URL that downloads the blob without a bearer token, valid until `expiresAt`. */
  presignGet(key: string, options: PresignOptions & { filename?: string; contentType?: string }): Promise<string>;
  /** Where presigned URLs point: "gateway" (served by our own signed routes) or "external" (object storage). */
  readonly presignTarget: "gateway" | "external";
}

export interface PresignOptions {
  /** Unix ms after which the URL is refused. */
  expiresAt: number;
  /** Origin of the gateway for gateway-served URLs, e.g. `http://127.0.0.1:8080` (ignored by external stores). */
  baseUrl: string;
}

export interface UploadedPart {
  partNumber: number;
  etag: string;
  size: number;
}

/**
 * An object assembled from numbered parts (1..10000), each uploaded once or
 * re-uploaded (last write wins). Parts may arrive through `putPart` or through
 * the presigned URL of `presignPart`; `listParts` sees both.
 */
export interface MultipartStore {
  /** Smallest size of every part but the last (S3: 5 MiB). */
  readonly minPartSize: number;
  /** Starts an upload that will become `key`; returns the store's upload id. */
  create(key: string, options?: { contentType?: string }): Promise<string>;
  /** URL for a single PUT of one part. */
  presignPart(key: string, uploadId: string, partNumber: number, options: PresignOptions & { maxSize?: number }): Promise<string>;
  /** Rejects with BlobTooLargeError (and keeps no part) when the body exceeds `maxSize`, with IncompleteBodyError when it ends short of a given `size`. */
  putPart(key: string, uploadId: string, partNumber: number, body: Readable, options?: { size?: number; maxSize?: number }): Promise<UploadedPart>;
  /** Parts received so far, ascending by part number; rejects with UploadNotFoundError. */
  listParts(key: string, uploadId: string): Promise<UploadedPart[]>;
  /**
   * Assembles the parts in the given order into `key`. A store that streams
   * the bytes itself (filesystem) shows each chunk to `onData` (a view of a
   * reused buffer: copy what you keep) and answers
   * `observed: true`, saving the caller a read pass; object stores assemble
   * server-side and answer `observed: false`.
   */
  complete(key: string, uploadId: string, parts: UploadedPart[], options?: { onData?(chunk: Buffer): void }): Promise<BlobInfo & { observed: boolean }>;
  /** Idempotent: frees every part. */
  abort(key: string, uploadId: string): Promise<void>;
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`blob not found: ${key}`);
    this.name = "BlobNotFoundError";
  }
}

export class UploadNotFoundError extends Error {
  constructor(readonly uploadId: string) {
    super(`multipart upload not found: ${uploadId}`);
    this.name = "UploadNotFoundError";
  }
}

/**
 * Complete was given a part that is no longer the one stored (re-uploaded or gone since it was
 * listed, e.g. a resent chunk that landed while completing): nothing was assembled, the upload
 * and its parts stay, and a complete with the current parts can succeed.
 */
export class PartChangedError extends Error {
  constructor(readonly partNumber?: number) {
    super(partNumber === undefined ? "a part changed or vanished before completion" : `part ${partNumber} changed or vanished before completion`);
    this.name = "PartChangedError";
  }
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxSize: number) {
    super(`body exceeds ${maxSize} bytes`);
    this.name = "BlobTooLargeError";
  }
}

/** A body ended before its declared size: nothing is kept. */
export class IncompleteBodyError extends Error {
  constructor(readonly expected: number, readonly received: number) {
    super(`body ended after ${received} of ${expected} bytes`);
    this.name = "IncompleteBodyError";
  }
}

export class RangeNotSatisfiableError extends Error {
  constructor(readonly size: number) {
    super(`range not satisfiable (size ${size})`);
    this.name = "RangeNotSatisfiableError";
  }
}

/** Blob keys are slash-separated segments of safe characters, none starting with a dot. */
export function assertValidKey(key: string): void {
  if (!/^[A-Za-z0-9_=-][A-Za-z0-9_.=-]*(\/[A-Za-z0-9_=-][A-Za-z0-9_.=-]*)*$/.test(key)) {
    throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
  }
}

/** A key prefix is one or more valid key segments followed by "/". */
export function assertValidPrefix(prefix: string): void {
  if (!prefix.endsWith("/")) throw new Error(`invalid blob key prefix (must end with "/"): ${JSON.stringify(prefix)}`);
  assertValidKey(prefix.slice(0, -1));
}

/** Clamps a requested range to a blob of `size` bytes; undefined = whole blob. */
export function resolveRange(range: ByteRange | undefined, size: number): { start: number; end: number } | undefined {
  if (!range) return undefined;
  const end = Math.min(range.end ?? size - 1, size - 1);
  if (range.start < 0 || range.start >= size || end < range.start) throw new RangeNotSatisfiableError(size);
  return { start: range.start, end };
}
