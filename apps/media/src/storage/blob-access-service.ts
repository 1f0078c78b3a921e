// BlobAccessService: the gateway paths of presigned URLs. No bearer token:
// the HMAC signature is checked here before the store is touched.
// Downloads (`location`, `thumbnail`) stream from either store with Range, for
// keys a committed file still owns: one primary-key lookup of blob_intent tells
// a deleted (or replaced) file's bytes that wait for their removal.
import { createHash } from "node:crypto";
import { Code, type ServiceImpl } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import { noneMatch } from "@signage/platform";
import { BlobNotFoundError, RangeNotSatisfiableError, verifyPresignedBlob } from "@signage/storage";
import type { BlobAccessService, GetPresignedBlobRequest, GetPresignedBlobResponse } from "@signage/contracts/signage/media/v1/upload_pb";
import { putPresignedPart } from "../uploads/chunked-parts.js";
import type { UploadDeps } from "../uploads/upload-deps.js";
import { contentTypeOfKey } from "./blob-keys.js";
import { isDisowned } from "./blob-intents.js";
import { customerOfBlobKey, refuseBlockedTenant } from "./tenant-block.js";
import { absoluteRange, parseRange } from "./range-header.js";

function blobNotFound() {
  return serviceError(Code.NotFound, "storage.error.blobNotFound", "The file's bytes are not (or no longer) stored");
}

function checkSignature(check: "ok" | "expired" | "invalid"): void {
  if (check === "invalid") throw serviceError(Code.PermissionDenied, "storage.error.invalidSignature", "The presigned URL's signature does not match");
  if (check === "expired") throw serviceError(Code.PermissionDenied, "storage.error.urlExpired", "The presigned URL has expired");
}

async function* download(req: GetPresignedBlobRequest, deps: UploadDeps): AsyncGenerator<Partial<GetPresignedBlobResponse>> {
  const { check, key } = verifyPresignedBlob(deps.storage.signer, { blob: req.blob, expires: req.expires, filename: req.filename, contentType: req.contentType, signature: req.signature }, (deps.now ?? Date.now)());
  checkSignature(check);
  const requested = parseRange(req.range);
  // A deleted (or replaced and removed) file's URL stops serving at the delete's commit, not
  // when its bytes are finally removed (after the response, or by the sweep after a crash).
  const [disowned] = await Promise.all([isDisowned(deps.files.knex, key), refuseBlockedTenant(deps.files.knex, customerOfBlobKey(key), blobNotFound)]);
  if (disowned) throw blobNotFound();
  // RFC 9110 §13.2.2: If-None-Match before Range. A client revalidating its copy (players do, all
  // day) gets its 304 from the blob's size alone: nothing is read (on S3 a HEAD, not a GET).
  if (req.ifNoneMatch) {
    const info = await deps.store.stat(key);
    if (!info) throw blobNotFound();
    const etag = strongEtag(key, info.size);
    if (noneMatch(req.ifNoneMatch, etag)) {
      yield { body: { kind: { case: "head", value: { status: 304, contentType: "", filename: "", headers: validatorHeaders(etag, req, deps), field: "" } as never } } as never };
      return;
    }
  }
  let read;
  try {
    let range = requested && !("suffix" in requested) ? requested : undefined;
    if (requested && "suffix" in requested) {
      const info = await deps.store.stat(key);
      if (!info) throw new BlobNotFoundError(key);
      range = absoluteRange(requested, info.size);
    }
    read = await deps.store.get(key, range);
  } catch (err) {
    if (err instanceof BlobNotFoundError) throw blobNotFound();
    if (err instanceof RangeNotSatisfiableError) throw serviceError(Code.OutOfRange, "storage.error.rangeNotSatisfiable", `Range not satisfiable (size ${err.size})`, { size: err.size });
    throw err;
  }
  // Bytes under a key never change (a file's key is its id; a thumbnail gets a new key per upload), so the
  // key and size make a strong validator (RFC 9110 §8.8.3) for If-None-Match and If-Range.
  const headers: Record<string, string> = { "accept-ranges": "bytes", ...validatorHeaders(strongEtag(key, read.size), req, deps) };
  if (read.range) headers["content-range"] = `bytes ${read.range.start}-${read.range.end}/${read.size}`;
  const length = read.range ? read.range.end - read.range.start + 1 : read.size;
  try {
    yield {
      body: {
        kind: {
          case: "head",
          value: { status: read.range ? 206 : 200, contentType: req.contentType || contentTypeOfKey(key), filename: req.filename ?? "", size: BigInt(length), headers, field: "" } as never,
        },
      } as never,
    };
    for await (const chunk of read.body) yield { body: { kind: { case: "chunk", value: chunk as Buffer } } as never };
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
function validatorHeaders(etag: string, req: GetPresignedBlobRequest, deps: UploadDeps): Record<string, string> {
  const maxAge = Math.max(0, Math.min(MAX_AGE_SECONDS, Math.floor((Number(req.expires) - (deps.now ?? Date.now)()) / 1000)));
  return { "cache-control": `private, max-age=${maxAge}, immutable`, etag };
}

function strongEtag(key: string, size: number): string {
  return `"${createHash("sha256").update(`${key}\n${size}`).digest("base64url").slice(0, 32)}"`;
}

export function blobAccessService(deps: UploadDeps): ServiceImpl<typeof BlobAccessService> {
  return {
    putPresignedPart: async (requests, ctx) => ({ ...(await putPresignedPart(requests, deps, ctx.signal)) }) as never,
    getPresignedBlob: (req) => download(req, deps) as never,
  };
}
