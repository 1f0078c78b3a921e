// A stored blob as a streamed download (stream.proto convention: a head, then
// chunks), with Range, If-None-Match and a strong ETag: the part of a
// presigned download that comes after the caller was authorised. Shared by
// `location`/`thumbnail` URLs (blob-access-service.ts) and private-app files
// (custom-apps/custom-app-files.ts).
import { createHash } from "node:crypto";
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import { noneMatch } from "@signage/platform";
import { BlobNotFoundError, RangeNotSatisfiableError, type BlobStore } from "@signage/storage";
import type { StreamedBodyPart } from "@signage/contracts/signage/common/v1/stream_pb";
import { absoluteRange, parseRange } from "./range-header.js";

export function blobNotFound() {
  return serviceError(Code.NotFound, "storage.error.blobNotFound", "The file's bytes are not (or no longer) stored");
}

/** The two refusals of a gateway-signed URL (403), before anything is looked up. */
export function checkSignature(check: "ok" | "expired" | "invalid"): void {
  if (check === "invalid") throw serviceError(Code.PermissionDenied, "storage.error.invalidSignature", "The presigned URL's signature does not match");
  if (check === "expired") throw serviceError(Code.PermissionDenied, "storage.error.urlExpired", "The presigned URL has expired");
}

export interface BlobStreamRequest {
  /** The HTTP Range header, as the gateway passes it. */
  range?: string;
  /** The HTTP If-None-Match header, as the gateway passes it. */
  ifNoneMatch?: string;
  contentType: string;
  /** The name the gateway puts in Content-Disposition; "" for none. */
  filename?: string;
  /** When the URL stops working (Unix ms): a cached copy must not outlive it. */
  expiresAt: number;
  now: number;
  /** Headers added to the head (on 200, 206 and 304). */
  headers?: Record<string, string>;
}

type Answer = { body: Partial<StreamedBodyPart> };

export async function* streamBlob(store: BlobStore, key: string, req: BlobStreamRequest): AsyncGenerator<Answer> {
  const requested = parseRange(req.range);
  const extra = req.headers ?? {};
  // RFC 9110 §13.2.2: If-None-Match before Range. A client revalidating its copy (players do, all
  // day) gets its 304 from the blob's size alone: nothing is read (on S3 a HEAD, not a GET).
  if (req.ifNoneMatch) {
    const info = await store.stat(key);
    if (!info) throw blobNotFound();
    const etag = strongEtag(key, info.size);
    if (noneMatch(req.ifNoneMatch, etag)) {
      yield { body: { kind: { case: "head", value: { status: 304, contentType: "", filename: "", headers: { ...extra, ...validatorHeaders(etag, req) }, field: "" } as never } } };
      return;
    }
  }
  let read;
  try {
    let range = requested && !("suffix" in requested) ? requested : undefined;
    if (requested && "suffix" in requested) {
      const info = await store.stat(key);
      if (!info) throw new BlobNotFoundError(key);
      range = absoluteRange(requested, info.size);
    }
    read = await store.get(key, range);
  } catch (err) {
    if (err instanceof BlobNotFoundError) throw blobNotFound();
    if (err instanceof RangeNotSatisfiableError) throw serviceError(Code.OutOfRange, "storage.error.rangeNotSatisfiable", `Range not satisfiable (size ${err.size})`, { size: err.size });
    throw err;
  }
  // Bytes under a key never change (a file's key is its id; a thumbnail or a package gets a new key per
  // upload), so the key and size make a strong validator (RFC 9110 §8.8.3) for If-None-Match and If-Range.
  const headers: Record<string, string> = { ...extra, "accept-ranges": "bytes", ...validatorHeaders(strongEtag(key, read.size), req) };
  if (read.range) headers["content-range"] = `bytes ${read.range.start}-${read.range.end}/${read.size}`;
  const length = read.range ? read.range.end - read.range.start + 1 : read.size;
  try {
    yield {
      body: {
        kind: {
          case: "head",
          value: { status: read.range ? 206 : 200, contentType: req.contentType, filename: req.filename ?? "", size: BigInt(length), headers, field: "" } as never,
        },
      },
    };
    for await (const chunk of read.body) yield { body: { kind: { case: "chunk", value: chunk as Buffer } } };
  } finally {
    // A HEAD (or a client gone after the head) ends the stream before the body was read: close the opened blob.
    read.body.destroy();
  }
}

const MAX_AGE_SECONDS = 86_400;

/**
 * ETag and Cache-Control, the same on a 200, 206 and 304 (RFC 9110 §15.4.5). Cache-Control: the URL
 * is the cache key and stops working at `expires`: a cached copy must not outlive it (RFC 9111
 * §5.2.2.1 max-age), and within that time the bytes do not change (RFC 8246 immutable).
 */
function validatorHeaders(etag: string, req: BlobStreamRequest): Record<string, string> {
  const maxAge = Math.max(0, Math.min(MAX_AGE_SECONDS, Math.floor((req.expiresAt - req.now) / 1000)));
  return { "cache-control": `private, max-age=${maxAge}, immutable`, etag };
}

function strongEtag(key: string, size: number): string {
  return `"${createHash("sha256").update(`${key}\n${size}`).digest("base64url").slice(0, 32)}"`;
}
