// POST /api/v2/file/upload/init: "none -> open: valid body; returns uploadId,
// URLs, maxChunkSize". Limits: size 1..10737418240 bytes, totalChunks
// 1..10000, chunk size at most maxChunkSize. Every file field given here is
// validated now, so that complete only has bytes left to check.
import { checkTags } from "../files/file-tags.js";
import type { HandlerContext } from "@connectrpc/connect";
import { requireAuth } from "@signage/auth";
import { assertMayCreateIn } from "../folders/root-creation.js";
import type { InitUploadRequest, InitUploadResponse } from "@signage/contracts/signage/media/v1/upload_pb";
import { writeTenant } from "../files/caller.js";
import { checkFileName, checkValidity } from "../files/file-repository.js";
import { parseTeamIdsParam } from "@signage/runtime";
import { requireStoredFolder } from "../folders/folder-repository.js";
import { fileBlobKey } from "../storage/blob-keys.js";
import { normaliseCrc } from "./file-digest.js";
import { assertFits, storageQuota } from "./quota.js";
import { insertSession } from "./session-repository.js";
import { validateContentType } from "./supported-types.js";
import { clientDimension } from "./image-size.js";
import { badUpload } from "./upload-errors.js";
import { requireUploadTeams } from "./upload-teams.js";
import { CHUNKED_MAX_SIZE, MAX_CHUNKS, type UploadDeps } from "./upload-deps.js";

export async function initUpload(req: InitUploadRequest, ctx: HandlerContext, deps: UploadDeps): Promise<InitUploadResponse> {
  const auth = requireAuth(ctx);
  const customerId = writeTenant(auth);
  const { knex, teams, newId } = deps.files;
  const { config } = deps.storage;
  const body = req.upload;
  if (!body) throw badUpload("upload.error.invalidRequest", "The init body (name, size, totalChunks) is required");
  const name = checkFileName(body.name);
  const size = Number(body.size);
  if (!Number.isSafeInteger(size) || size < 1 || size > CHUNKED_MAX_SIZE) {
    throw badUpload("upload.error.invalidSize", `size must be between 1 and ${CHUNKED_MAX_SIZE} bytes`, { size, min: 1, max: CHUNKED_MAX_SIZE });
  }
  const totalChunks = body.totalChunks;
  if (!Number.isInteger(totalChunks) || totalChunks < 1 || totalChunks > MAX_CHUNKS) {
    throw badUpload("upload.error.invalidTotalChunks", `totalChunks must be between 1 and ${MAX_CHUNKS}`, { totalChunks, min: 1, max: MAX_CHUNKS });
  }
  if (totalChunks > size) throw badUpload("upload.error.invalidTotalChunks", "totalChunks cannot exceed size (a chunk holds at least one byte)", { totalChunks, size });
  // Some split must exist: every chunk at most maxChunkSize, every chunk but the last at least the store's minimum.
  if (size > totalChunks * config.maxChunkSize) {
    throw badUpload("upload.error.chunkTooLarge", `${totalChunks} chunks of at most maxChunkSize ${config.maxChunkSize} bytes cannot hold ${size} bytes; use at least ${Math.ceil(size / config.maxChunkSize)} chunks`, {
      maxChunkSize: config.maxChunkSize,
      minTotalChunks: Math.ceil(size / config.maxChunkSize),
    });
  }
  const minPart = deps.store.multipart.minPartSize;
  if (totalChunks > 1 && (totalChunks - 1) * minPart + 1 > size) {
    const most = Math.max(1, Math.floor((size - 1) / minPart) + 1);
    throw badUpload("upload.error.chunkTooSmall", `The storage needs chunks of at least ${minPart} bytes (except the last); use at most ${most} chunks`, { minChunkSize: minPart, maxTotalChunks: most });
  }
  const contentType = validateContentType(body.contentType, name);
  let crc: string | undefined;
  if (body.crcChecksum !== undefined && body.crcChecksum !== "") {
    crc = normaliseCrc(body.crcChecksum);
    if (!crc) throw badUpload("upload.error.invalidChecksum", "crcChecksum must be a CRC32 in hexadecimal", { crcChecksum: body.crcChecksum });
  }
  const validFrom = body.validFrom === undefined ? null : Number(body.validFrom);
  const validTo = body.validTo === undefined ? null : Number(body.validTo);
  checkValidity(validFrom, validTo);
  const width = clientDimension(body.width, "width");
  const height = clientDimension(body.height, "height");
  // Checked now, not at complete: a bad tag must not cost the client every uploaded chunk.
  const tags = checkTags(body.tags);
  const assignments = parseTeamIdsParam(req.teamIds);
  // A folder the caller's teams hide is not found before anything else about it or the request is told.
  const parent = body.parentId ? await requireStoredFolder(knex, customerId, body.parentId, false, await teams.access?.(auth)) : undefined;
  // Complete assigns these teams; an unknown one is refused now, before the session and its parts exist.
  await requireUploadTeams(ctx, deps, customerId, assignments);
  await assertMayCreateIn(knex, teams, auth, { customerId, parent }, assignments, false);
  assertFits(await storageQuota(ctx, deps, customerId), size);

  const fileId = newId();
  const uploadId = newId();
  const key = fileBlobKey(customerId, fileId, contentType);
  const storeUploadId = await deps.store.multipart.create(key, { contentType });
  const expiresAt = (deps.now ?? Date.now)() + config.uploadTtlMs;
  // The sweeper finds open uploads by their session row: one whose row was never written (a value
  // PostgreSQL refused, a lost connection) would stay in the store for good (on S3, billed).
  await insertSession(knex, {
    id: uploadId,
    customer_id: customerId,
    file_id: fileId,
    storage_key: key,
    store_upload_id: storeUploadId,
    name,
    size,
    total_chunks: totalChunks,
    max_chunk_size: config.maxChunkSize,
    content_type: contentType,
    meta_data: (body.metaData as Record<string, unknown> | undefined) ?? null,
    parent_id: body.parentId || null,
    tags,
    valid_from: validFrom,
    valid_to: validTo,
    width: width ?? null,
    height: height ?? null,
    muted: body.muted ?? null,
    crc_checksum: crc ?? null,
    team_ids: req.teamIds ?? null,
    creator_user_id: auth.caller.userId,
    creator_email: auth.caller.subject,
    expires_at: new Date(expiresAt),
  }).catch(async (err: unknown) => {
    await deps.store.multipart.abort(key, storeUploadId).catch((abortErr: unknown) => deps.files.logger.warn({ err: abortErr, key }, "multipart upload of a refused init not aborted"));
    throw err;
  });
  const uploadUrls: Record<string, string> = {};
  for (let n = 1; n <= totalChunks; n++) {
    uploadUrls[String(n)] = await deps.store.multipart.presignPart(key, storeUploadId, n, { expiresAt, baseUrl: config.publicBaseUrl, maxSize: config.maxChunkSize });
  }
  return { uploadId, uploadUrls, maxChunkSize: BigInt(config.maxChunkSize), name, size: BigInt(size), totalChunks } as InitUploadResponse;
}
