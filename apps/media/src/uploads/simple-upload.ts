// POST /api/file: "multipart/form-data; parts files[] (binary), previews[]
// (binary thumbnails; each preview filename must equal its file's filename)".
// Each part streams straight into the blob store (size, CRC32 and the image
// header observed on the way); the rows are inserted in one transaction once
// every byte is stored, so no half-written upload is ever visible. On any
// failure the stored blobs are deleted again; a crash before the rows commit
// leaves their blob intents, which the intent sweeper resolves (blob-write.ts).
import type { HandlerContext } from "@connectrpc/connect";
import { requireAuth } from "@signage/auth";
import { assertMayCreateIn } from "../folders/root-creation.js";
import type { File } from "@signage/contracts/signage/media/v1/file_pb";
import type { UploadFilesRequest } from "@signage/contracts/signage/media/v1/upload_pb";
import { writeTenant } from "../files/caller.js";
import { checkValidity, insertFile, requireFile } from "../files/file-repository.js";
import { checkTags } from "../files/file-tags.js";
import { readFile } from "../files/file-list.js";
import { replaceFileInTransaction, type ReplaceOutcome } from "../files/file-replace.js";
import { parseTeamIdsParam } from "@signage/runtime";
import { requireStoredFolder } from "../folders/folder-repository.js";
import { fileBlobKey, thumbnailBlobKey } from "../storage/blob-keys.js";
import { StreamedRequest } from "../storage/streamed-request.js";
import { discardBlobs } from "../storage/blob-intents.js";
import { removeDeletedBlobs } from "../files/file-delete.js";
import { ownWrittenBlobs, writeDigested, type BlobTarget } from "./blob-write.js";
import { clientDimension, imageSize } from "./image-size.js";
import { assertBytesMatchType, assertThumbnailBytes } from "./content-signature.js";
import { assertFitsAtCommit, remainingBytes, storageQuota } from "./quota.js";
import { notMultipart, thumbnailContentType, validateContentType } from "./supported-types.js";
import { badUpload, emptyBody } from "./upload-errors.js";
import { callerName } from "./upload-creator.js";
import { requireUploadTeams } from "./upload-teams.js";
import { announceFileTags } from "../files/file-tag-events.js";
import { SIMPLE_UPLOAD_LIMIT, THUMBNAIL_LIMIT, type UploadDeps } from "./upload-deps.js";

const FILE_FIELDS = new Set(["files[]", "files", "file"]);
const PREVIEW_FIELDS = new Set(["previews[]", "previews", "preview"]);

interface StoredFile {
  id: string;
  key: string;
  filename: string;
  contentType: string;
  size: number;
  checksum: string;
  header: Buffer;
}

interface StoredPreview {
  key: string;
  filename: string;
}

function splitTags(tags: string[]): string[] {
  return tags.flatMap((t) => t.split(",")).map((t) => t.trim()).filter(Boolean);
}

export async function uploadFiles(requests: AsyncIterable<UploadFilesRequest>, ctx: HandlerContext, deps: UploadDeps): Promise<File[]> {
  const auth = requireAuth(ctx);
  const customerId = writeTenant(auth);
  const { knex, teams, newId } = deps.files;
  const stream = await StreamedRequest.open(requests, ctx.signal);
  const q = stream.first;

  // Everything the query decides is checked before the first byte is stored.
  const validFrom = q.validFrom === undefined ? undefined : Number(q.validFrom);
  const validTo = q.validTo === undefined ? undefined : Number(q.validTo);
  checkValidity(validFrom, validTo);
  const width = clientDimension(q.width, "width");
  const height = clientDimension(q.height, "height");
  const tags = checkTags(splitTags(q.tags));
  const assignments = parseTeamIdsParam(q.teamIds);
  // A folder the caller's teams hide is not found before anything else about it or the request is told.
  const parent = q.parentId ? await requireStoredFolder(knex, customerId, q.parentId, false, await teams.access?.(auth)) : undefined;
  await requireUploadTeams(ctx, deps, customerId, assignments);
  await assertMayCreateIn(knex, teams, auth, { customerId, parent }, assignments, !!(q.inheritParentTeams && parent));
  // Bytes the upload frees: with removeOldFile the replaced file goes in the same transaction.
  let freed = 0;
  if (q.fileIdToReplace) {
    // Replacing (and with removeOldFile deleting) is a write to that file: the same team check as every other file write.
    const replaced = await requireFile(knex, customerId, q.fileIdToReplace);
    await teams.assertWritable(knex, auth, "file", [replaced.id]);
    if (q.removeOldFile) freed = Number(replaced.size);
  }
  // 507 only when the customer's storage would end up over its storageSize: a replacement that
  // removes the old file is measured without it (assertFitsAtCommit decides on the final total).
  const counted = await storageQuota(ctx, deps, customerId);
  const quota = { ...counted, used: Math.max(0, counted.used - freed) };

  // Asked while the bytes stream (never rejects; null when core does not answer).
  const creatorName = callerName(ctx, deps);
  const target: BlobTarget = { knex, store: deps.store, customerId };
  const files: StoredFile[] = [];
  const previews: StoredPreview[] = [];
  const storedKeys = () => [...files.map((f) => f.key), ...previews.map((p) => p.key)];
  try {
    for (let part = await stream.nextPart(); part; part = await stream.nextPart()) {
      const { head, body } = part;
      if (head.value !== undefined) continue; // plain form fields carry nothing for this operation
      // A body that is no form (the gateway hands it over as one part without a field name).
      if (head.field === "") throw notMultipart(head.contentType);
      if (FILE_FIELDS.has(head.field)) {
        const contentType = validateContentType(head.contentType, head.filename);
        const id = newId();
        const key = fileBlobKey(customerId, id, contentType);
        const written = files.reduce((n, f) => n + f.size, 0);
        const remaining = remainingBytes(quota) - written;
        const digest = await writeDigested(target, key, body, contentType, {
          // "below 200 MB per file": 200 MB itself is refused.
          maxBytes: SIMPLE_UPLOAD_LIMIT - 1,
          what: `The file '${head.filename}' (simple upload is for files below 200 MB; use the chunked upload)`,
          quota: { quota: { ...quota, used: quota.used + written }, remaining },
        });
        files.push({ id, key, filename: head.filename, contentType, size: digest.size, checksum: digest.checksum, header: digest.header });
        // As for chunked uploads ("1 byte to 10 GB"): an empty part is no media file (its bytes go in the catch below).
        if (digest.size === 0) throw emptyBody(`The file '${head.filename}' is empty`, head.filename);
        assertBytesMatchType(contentType, digest.header, head.filename);
      } else if (PREVIEW_FIELDS.has(head.field)) {
        const type = thumbnailContentType(head.contentType, head.filename);
        const key = thumbnailBlobKey(customerId, newId(), type);
        const digest = await writeDigested(target, key, body, type, { maxBytes: THUMBNAIL_LIMIT, what: `The preview '${head.filename}'` });
        previews.push({ key, filename: head.filename });
        if (digest.size === 0) throw emptyBody(`The preview '${head.filename}' is empty`, head.filename);
        assertThumbnailBytes(type, digest.header, head.filename);
      } else {
        throw badUpload("upload.error.unknownPart", `Unexpected multipart part '${head.field}'; expected files[] and previews[]`, { field: head.field });
      }
    }
    if (files.length === 0) throw badUpload("upload.error.noFiles", "The upload contains no files[] part");

    // Previews pair with files of the same name in order: two files named alike take two
    // previews, and never share one (deleting either would remove the other's thumbnail).
    const thumbnailOf = new Map<string, string>();
    for (const preview of previews) {
      const file = files.find((f) => f.filename === preview.filename && !thumbnailOf.has(f.id));
      if (!file) {
        throw badUpload("upload.error.previewNameMismatch", `Each preview's file name must equal its file's file name; no file without a preview matches '${preview.filename}'`, { filename: preview.filename, files: files.map((f) => f.filename) });
      }
      thumbnailOf.set(file.id, preview.key);
    }

    const creator = { userId: auth.caller.userId, email: auth.caller.subject, name: await creatorName };
    const outcome = await knex.transaction(async (trx) => {
      // First: a swept intent refuses the upload before any row is written.
      await ownWrittenBlobs(trx, storedKeys());
      for (const f of files) {
        const size = width && height ? { width, height } : imageSize(f.contentType, f.header);
        await insertFile(trx, {
          id: f.id,
          customerId,
          fileFolderId: q.parentId || null,
          name: f.filename,
          contentType: f.contentType,
          size: f.size,
          width: width ?? size?.width ?? null,
          height: height ?? size?.height ?? null,
          crcCheckSum: f.checksum,
          tags,
          validFrom,
          validTo,
          muted: q.muted ?? false,
          creator,
          storageKey: f.key,
          thumbnailKey: thumbnailOf.get(f.id) ?? null,
        }, newId);
        await teams.assignOnCreate(trx, "file", f.id, customerId, assignments, q.inheritParentTeams ? (q.parentId || undefined) : undefined);
      }
      // Core's tag index counts the new files' tags (with their teams, for restricted callers).
      await announceFileTags(trx, deps.files.outbox, files.map((f) => f.id));
      let replaced: ReplaceOutcome | undefined;
      if (q.fileIdToReplace) {
        // A removed old file's bytes get their removal intent in this transaction (file-delete.ts).
        replaced = await replaceFileInTransaction(trx, deps.files, { customerId, fileIdToReplace: q.fileIdToReplace, sourceFileId: files[0].id, removeOldFile: q.removeOldFile ?? false });
      }
      // Last: the customer's total with these files (and without a removed old one), concurrent uploads included.
      await assertFitsAtCommit(trx, quota, customerId, files.reduce((n, f) => n + f.size, 0));
      return replaced;
    });
    if (outcome) await removeDeletedBlobs(deps.files, customerId, outcome.deleted);
  } catch (err) {
    await discardBlobs(knex, deps.store, storedKeys());
    throw err;
  }
  return Promise.all(files.map((f) => readFile(ctx, deps.files, f.id)));
}
