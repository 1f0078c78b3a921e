// "open -> finished: complete; all chunks uploaded; file record created,
// session resources cleaned up, file returned", and "open -> cancelled:
// cancel (DELETE); any time; resources cleaned up".
// Complete first claims the session (state `completing`, so a second complete
// or a cancel cannot interleave; a claim left by a process that died expires
// after COMPLETE_CLAIM_TTL_MS, and ends only the claim it made), checks everything that can still be fixed
// by the client (missing chunks, sizes, quota, folder) with the parts intact,
// then assembles, reads the result once for CRC32 and the image header, and
// inserts the row in the transaction that deletes the session. The assembled
// blob has a blob intent from before assembly until that commit, so a crash
// mid-complete leaves nothing the intent sweeper does not remove; the parts
// stay with the session (aborted by the session sweeper when it expires).
import { Code, type HandlerContext } from "@connectrpc/connect";
import { requireAuth, serviceError } from "@signage/auth";
import type { File } from "@signage/contracts/signage/media/v1/file_pb";
import { insertFile } from "../files/file-repository.js";
import { readFile } from "../files/file-list.js";
import { parseTeamIdsParam } from "@signage/runtime";
import { requireStoredFolder } from "../folders/folder-repository.js";
import { FileDigest } from "./file-digest.js";
import { imageSize } from "./image-size.js";
import { assertBytesMatchType } from "./content-signature.js";
import { assertFits, assertFitsAtCommit, storageQuota } from "./quota.js";
import { partsOf, requireOpen } from "./chunked-parts.js";
import { claimSession, deleteClaimedSession, deleteSession, findSession, reopenClaimedSession, type SessionRow } from "./session-repository.js";
import { badUpload, payloadTooLarge, sessionNotFound } from "./upload-errors.js";
import { announceFileTags } from "../files/file-tag-events.js";
import { discardBlobs, recordBlobIntents } from "../storage/blob-intents.js";
import { ownWrittenBlobs } from "./blob-write.js";
import { PartChangedError, UploadNotFoundError } from "@signage/storage";
import { callerName } from "./upload-creator.js";
import { requireUploadTeams } from "./upload-teams.js";
import { assertMayCreateIn } from "../folders/root-creation.js";
import type { UploadDeps } from "./upload-deps.js";
import { requireSessionAccess } from "./session-access.js";

async function claim(deps: UploadDeps, ctx: HandlerContext, uploadId: string): Promise<{ session: SessionRow; claimedAt: Date }> {
  const auth = requireAuth(ctx);
  return deps.files.knex.transaction(async (trx) => {
    const found = await findSession(trx, auth.scope, uploadId, { forUpdate: true });
    if (!found) throw sessionNotFound(uploadId);
    // Before its state or its chunks are told: a session of a folder or file the caller's teams hide is not found.
    await requireSessionAccess(deps, auth, found, uploadId, false, trx);
    const session = requireOpen(found, uploadId);
    const claimedAt = new Date();
    await claimSession(trx, session.id, claimedAt);
    return { session, claimedAt };
  });
}

/** The claim expired and a cancel or another complete took the session while this one ran. */
function takenOver(uploadId: string) {
  return serviceError(Code.Aborted, "upload.error.sessionTakenOver", `Upload session '${uploadId}' was cancelled or completed by another request while this complete ran`, { uploadId });
}

/** Everything the client can still repair, checked while the parts are intact. */
async function checkBeforeAssembly(deps: UploadDeps, ctx: HandlerContext, session: SessionRow) {
  const { parts, missing } = await partsOf(deps, session);
  if (missing.length > 0) {
    throw serviceError(Code.FailedPrecondition, "upload.error.missingChunks", `${missing.length} of ${session.total_chunks} chunks are not uploaded yet`, { missingChunks: missing.slice(0, 1000) });
  }
  const maxChunk = Number(session.max_chunk_size);
  const oversized = parts.find((p) => p.size > maxChunk);
  if (oversized) throw payloadTooLarge(maxChunk, `Chunk ${oversized.partNumber}`);
  const minPart = deps.store.multipart.minPartSize;
  const small = parts.find((p) => p.partNumber < session.total_chunks && p.size < minPart);
  if (small) throw badUpload("upload.error.chunkTooSmall", `Chunk ${small.partNumber} has ${small.size} bytes; every chunk but the last needs at least ${minPart}`, { partNumber: small.partNumber, minChunkSize: minPart });
  const total = parts.reduce((n, p) => n + p.size, 0);
  if (total !== Number(session.size)) {
    throw badUpload("upload.error.sizeMismatch", `The chunks add up to ${total} bytes, but init declared ${session.size}`, { expected: Number(session.size), actual: total });
  }
  const customerId = Number(session.customer_id);
  const quota = await storageQuota(ctx, deps, customerId);
  assertFits(quota, total);
  const parent = session.parent_id ? await requireStoredFolder(deps.files.knex, customerId, session.parent_id) : undefined;
  // A team deleted since init: refused while the session can still be cancelled or recovered.
  const assignments = parseTeamIdsParam(session.team_ids ?? undefined);
  await requireUploadTeams(ctx, deps, customerId, assignments);
  // Init's team checks again, for the caller completing (team access may have changed since; another team user may complete).
  await assertMayCreateIn(deps.files.knex, deps.files.teams, requireAuth(ctx), { customerId, parent }, assignments, false);
  return { parts, quota };
}

async function digestOf(deps: UploadDeps, key: string): Promise<FileDigest> {
  const digest = new FileDigest();
  const { body } = await deps.store.get(key);
  for await (const chunk of body) digest.observe(chunk as Buffer);
  return digest;
}

export async function completeUpload(uploadId: string, ctx: HandlerContext, deps: UploadDeps): Promise<File> {
  const auth = requireAuth(ctx);
  const { knex, teams, newId } = deps.files;
  const { session, claimedAt } = await claim(deps, ctx, uploadId);
  const customerId = Number(session.customer_id);
  let intended = false;
  let assembled = false;
  try {
    const { parts, quota } = await checkBeforeAssembly(deps, ctx, session);
    // The uploader's name, asked while assembling (never rejects); only the session's creator can give their own.
    const creatorName = session.creator_user_id === auth.caller.userId ? callerName(ctx, deps) : Promise.resolve(null);
    await recordBlobIntents(knex, customerId, [session.storage_key]);
    intended = true;
    // The filesystem store shows the bytes while assembling; object stores need one read pass.
    let digest = new FileDigest();
    const assembly = await deps.store.multipart.complete(session.storage_key, session.store_upload_id, parts, { onData: (chunk) => digest.observe(chunk) });
    assembled = true;
    if (!assembly.observed) digest = await digestOf(deps, session.storage_key);
    if (digest.size !== Number(session.size)) {
      throw badUpload("upload.error.sizeMismatch", `The assembled file has ${digest.size} bytes, but init declared ${session.size}`, { expected: Number(session.size), actual: digest.size });
    }
    if (session.crc_checksum && session.crc_checksum !== digest.checksum) {
      throw badUpload("upload.error.checksumMismatch", "The assembled file's CRC32 differs from crcChecksum given at init", { expected: session.crc_checksum, actual: digest.checksum });
    }
    assertBytesMatchType(session.content_type, digest.header, session.name);
    const name = await creatorName;
    const sniffed = session.width && session.height ? undefined : imageSize(session.content_type, digest.header);
    await knex.transaction(async (trx) => {
      await ownWrittenBlobs(trx, [session.storage_key]);
      await insertFile(trx, {
        id: session.file_id,
        customerId,
        fileFolderId: session.parent_id,
        name: session.name,
        contentType: session.content_type,
        size: digest.size,
        width: session.width ?? sniffed?.width ?? null,
        height: session.height ?? sniffed?.height ?? null,
        crcCheckSum: digest.checksum,
        tags: session.tags,
        metaData: session.meta_data,
        validFrom: session.valid_from === null ? null : Number(session.valid_from),
        validTo: session.valid_to === null ? null : Number(session.valid_to),
        muted: session.muted ?? false,
        creator: { userId: session.creator_user_id ?? undefined, email: session.creator_email ?? undefined, name },
        storageKey: session.storage_key,
      }, newId);
      await teams.assignOnCreate(trx, "file", session.file_id, customerId, parseTeamIdsParam(session.team_ids ?? undefined));
      await announceFileTags(trx, deps.files.outbox, [session.file_id]);
      if (!(await deleteClaimedSession(trx, session.id, claimedAt))) throw takenOver(uploadId);
      // Last: concurrent uploads of the customer that committed since the check above count too.
      await assertFitsAtCommit(trx, quota, customerId, digest.size);
    });
  } catch (err) {
    // Nothing owns the key: a failed assembly left no blob, or a partial one (parts
    // still in the upload stay for a retry); either way blob and intent go.
    if (intended) await discardBlobs(knex, deps.store, [session.storage_key]);
    if (assembled) {
      // The parts are gone: the session cannot be resumed. Drop the session too (if still ours).
      await deleteClaimedSession(knex, session.id, claimedAt).catch(() => undefined);
    } else {
      await reopenClaimedSession(knex, session.id, claimedAt).catch(() => undefined);
    }
    // A chunk resent while completing replaced a listed part: the session is open again, so a new complete succeeds.
    if (err instanceof PartChangedError) {
      throw serviceError(Code.FailedPrecondition, "upload.error.partChanged", `${err.message}: a chunk was uploaded again while completing; call complete again`, { uploadId, ...(err.partNumber === undefined ? {} : { partNumber: err.partNumber }) });
    }
    // The store's upload went while this complete held the session: a cancel (or the sweeper) took it over
    // once the claim had expired, and aborted the parts this complete was assembling.
    if (err instanceof UploadNotFoundError) throw takenOver(uploadId);
    throw err;
  }
  return readFile(ctx, deps.files, session.file_id).catch((err) => {
    deps.files.logger.warn({ err, fileId: session.file_id, userId: auth.caller.userId }, "completed upload not readable by its uploader");
    throw err;
  });
}

/** DELETE /api/v2/file/upload/{uploadId}. */
export async function cancelUpload(uploadId: string, ctx: HandlerContext, deps: UploadDeps): Promise<void> {
  const auth = requireAuth(ctx);
  await deps.files.knex.transaction(async (trx) => {
    const session = await findSession(trx, auth.scope, uploadId, { forUpdate: true });
    if (!session) throw sessionNotFound(uploadId);
    // Cancelling ends an upload into its folder: hidden from the caller's teams, not found; held read-only, refused.
    await requireSessionAccess(deps, auth, session, uploadId, true, trx);
    requireOpen(session, uploadId);
    await deps.store.multipart.abort(session.storage_key, session.store_upload_id);
    await deleteSession(trx, session.id);
  });
}
