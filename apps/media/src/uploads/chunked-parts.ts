// "open -> open: chunk PUT (direct to URL or via the part endpoint); part
// number within totalChunks; part recorded", and recover ("returns uploaded
// and missing parts"). Parts are recorded by the blob store's multipart
// upload itself, so parts that went straight to a presigned object-storage
// URL are seen as well.
import { Transform } from "node:stream";
import { Code, type HandlerContext } from "@connectrpc/connect";
import { requireAuth, serviceError } from "@signage/auth";
import { BlobTooLargeError, IncompleteBodyError, UploadNotFoundError, verifyPresignedPart } from "@signage/storage";
import type { PutPresignedPartRequest, RecoverUploadResponse, UploadPartRequest, UploadPartResponse } from "@signage/contracts/signage/media/v1/upload_pb";
import { StreamedRequest } from "../storage/streamed-request.js";
import { refuseBlockedTenant } from "../storage/tenant-block.js";
import { uploadGcPacer } from "./gc-pacer.js";
import { checkingFirstBytes } from "./content-signature.js";
import { findSession, findSessionByStoreUpload, type SessionRow } from "./session-repository.js";
import { badUpload, payloadTooLarge, sessionNotFound } from "./upload-errors.js";
import { requireSessionAccess } from "./session-access.js";
import { COMPLETE_CLAIM_TTL_MS, type UploadDeps } from "./upload-deps.js";

/** An open session, or one whose complete's claim expired (its process died mid-complete). */
export function requireOpen(session: SessionRow | undefined, uploadId: string, now = Date.now()): SessionRow {
  if (!session) throw sessionNotFound(uploadId);
  const abandoned = session.state === "completing" && session.updated_at.getTime() <= now - COMPLETE_CLAIM_TTL_MS;
  if (session.state !== "open" && !abandoned) throw serviceError(Code.FailedPrecondition, "upload.error.sessionNotOpen", `Upload session '${uploadId}' is being completed`, { uploadId });
  return session;
}

class EmptyChunkError extends Error {}

function refuseEmpty(): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      done(seen === 0 ? new EmptyChunkError("empty chunk") : null);
    },
  });
}

function emptyChunk(partNumber: number) {
  return badUpload("upload.error.emptyBody", `Chunk ${partNumber} is empty; every chunk holds at least one byte`, { partNumber });
}

async function sessionStillExists(deps: UploadDeps, id: string): Promise<boolean> {
  return (await deps.files.knex("upload_session").where({ id }).first("id")) !== undefined;
}

function checkPartNumber(session: SessionRow, partNumber: number): void {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > session.total_chunks) {
    throw badUpload("upload.error.invalidPartNumber", `partNumber must be between 1 and totalChunks (${session.total_chunks})`, { partNumber, totalChunks: session.total_chunks });
  }
}

async function storePart(deps: UploadDeps, session: SessionRow, partNumber: number, stream: StreamedRequest<{ body?: never } & object>, maxSize: number): Promise<UploadPartResponse> {
  checkPartNumber(session, partNumber);
  // The chunk is the raw body or the form's first file part: plain form fields before it carry nothing here.
  let part = await stream.nextPart();
  while (part && part.head.value !== undefined) part = await stream.nextPart();
  if (!part) throw badUpload("upload.error.emptyBody", "The chunk body is missing");
  const declared = part.head.size === undefined ? undefined : Number(part.head.size);
  if (declared !== undefined && declared > maxSize) throw payloadTooLarge(maxSize, `Chunk ${partNumber}`);
  // Init refuses totalChunks > size ("a chunk holds at least one byte"): an empty chunk can
  // never be part of the file. Refused before the store sees it, so it cannot replace a good part.
  if (declared === 0) throw emptyChunk(partNumber);
  try {
    const paced = uploadGcPacer.through();
    // A body of unknown length that turns out empty fails the store's write, which then keeps nothing.
    const nonEmpty = refuseEmpty();
    part.body.on("error", (e) => nonEmpty.destroy(e));
    nonEmpty.on("error", (e) => paced.destroy(e));
    // The store reads its errors through its own pipeline, attached only once it is ready to write;
    // one raised before that (part 1's first bytes refused) must not go unheard meanwhile.
    paced.on("error", () => undefined);
    // Part 1 starts the file: its first bytes must be what the session's contentType says (content-signature.ts).
    const checked = partNumber === 1 ? part.body.pipe(checkingFirstBytes(session.content_type, session.name, session.total_chunks > 1)) : part.body;
    checked.on("error", (e) => nonEmpty.destroy(e));
    const stored = await deps.store.multipart.putPart(session.storage_key, session.store_upload_id, partNumber, checked.pipe(nonEmpty).pipe(paced), { size: declared, maxSize });
    // "cancel (DELETE); any time; resources cleaned up": a cancel (or complete) that ran while
    // this chunk streamed has already cleaned up; this late part must not stay behind, nor succeed.
    if (!(await sessionStillExists(deps, session.id))) {
      await deps.store.multipart.abort(session.storage_key, session.store_upload_id).catch(() => undefined);
      throw sessionNotFound(session.id);
    }
    return {
      partNumber,
      etag: stored.etag,
      uploadedSize: BigInt(stored.size),
      sessionId: session.id,
      success: true,
      message: `Chunk ${partNumber} of ${session.total_chunks} uploaded`,
    } as UploadPartResponse;
  } catch (err) {
    if (err instanceof EmptyChunkError) throw emptyChunk(partNumber);
    if (err instanceof BlobTooLargeError) throw payloadTooLarge(maxSize, `Chunk ${partNumber}`);
    if (err instanceof UploadNotFoundError) throw sessionNotFound(session.id);
    if (err instanceof IncompleteBodyError) throw badUpload("upload.error.incompleteBody", `Chunk ${partNumber} ended after ${err.received} of ${err.expected} bytes; it was not recorded`, { expected: err.expected, received: err.received });
    throw err;
  }
}

/** PUT /api/v2/file/upload/{uploadId}/part/{partNumber} (EDITOR). */
export async function uploadPart(requests: AsyncIterable<UploadPartRequest>, ctx: HandlerContext, deps: UploadDeps): Promise<UploadPartResponse> {
  const auth = requireAuth(ctx);
  const stream = await StreamedRequest.open(requests, ctx.signal);
  const { uploadId, partNumber } = stream.first;
  const found = await findSession(deps.files.knex, auth.scope, uploadId);
  if (!found) throw sessionNotFound(uploadId);
  // A session of a folder or file the caller's teams hide is not found; one it may not create in, refused.
  await requireSessionAccess(deps, auth, found, uploadId, true);
  const session = requireOpen(found, uploadId);
  return storePart(deps, session, partNumber, stream as never, Number(session.max_chunk_size));
}

/** PUT {presignedUrl} of the filesystem store: the signature is the authorisation. */
export async function putPresignedPart(requests: AsyncIterable<PutPresignedPartRequest>, deps: UploadDeps, signal?: AbortSignal): Promise<UploadPartResponse> {
  const stream = await StreamedRequest.open(requests, signal);
  const q = stream.first;
  const check = verifyPresignedPart(deps.storage.signer, { uploadId: q.uploadId, partNumber: q.partNumber, expires: q.expires, maxSize: q.maxSize, signature: q.signature }, (deps.now ?? Date.now)());
  if (check === "invalid") throw serviceError(Code.PermissionDenied, "storage.error.invalidSignature", "The presigned URL's signature does not match");
  if (check === "expired") throw serviceError(Code.PermissionDenied, "storage.error.urlExpired", "The presigned URL has expired");
  // The URL names the storage's upload: errors name the client's uploadId (the session's), or none.
  const found = await findSessionByStoreUpload(deps.files.knex, q.uploadId);
  if (!found) throw sessionNotFound();
  const session = requireOpen(found, found.id);
  // No token here either: a restricted (or deleted) customer's presigned part URLs stop working too.
  await refuseBlockedTenant(deps.files.knex, Number(session.customer_id), () => sessionNotFound(session.id));
  const maxSize = Math.min(Number(session.max_chunk_size), q.maxSize === undefined ? Number.POSITIVE_INFINITY : Number(q.maxSize));
  return storePart(deps, session, q.partNumber, stream as never, maxSize);
}

/** Part numbers received so far (within 1..totalChunks) and the ones still missing. */
export async function partsOf(deps: UploadDeps, session: SessionRow) {
  let parts;
  try {
    parts = await deps.store.multipart.listParts(session.storage_key, session.store_upload_id);
  } catch (err) {
    if (err instanceof UploadNotFoundError) throw sessionNotFound(session.id);
    throw err;
  }
  const inRange = parts.filter((p) => p.partNumber >= 1 && p.partNumber <= session.total_chunks);
  const have = new Set(inRange.map((p) => p.partNumber));
  const missing: number[] = [];
  for (let n = 1; n <= session.total_chunks; n++) if (!have.has(n)) missing.push(n);
  return { parts: inRange, uploaded: inRange.map((p) => p.partNumber), missing };
}

/** GET /api/v2/file/upload/{uploadId}/recover: "any time; returns uploaded and missing parts". */
export async function recoverUpload(uploadId: string, ctx: HandlerContext, deps: UploadDeps): Promise<RecoverUploadResponse> {
  const auth = requireAuth(ctx);
  const session = await findSession(deps.files.knex, auth.scope, uploadId);
  if (!session) throw sessionNotFound(uploadId);
  await requireSessionAccess(deps, auth, session, uploadId, false);
  const { uploaded, missing } = await partsOf(deps, session);
  return { uploadId: session.id, name: session.name, size: BigInt(session.size), totalChunks: session.total_chunks, uploadedChunks: uploaded, missingChunks: missing } as RecoverUploadResponse;
}
