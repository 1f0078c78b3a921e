// PUT /api/v2/file/upload/{fileId}/thumbnail: "body image/* binary" for any
// file id ("The server never generates thumbnails. The client must supply a
// thumbnail for every file of every type"). The new thumbnail gets a new key;
// the row points at it once stored, then the old bytes go. Both blobs are
// covered by intents across the crash windows: the new one from before its
// write until the row's commit, the old one from that commit until deleted.
import type { HandlerContext } from "@connectrpc/connect";
import { requireAuth } from "@signage/auth";
import type { UploadThumbnailRequest } from "@signage/contracts/signage/media/v1/upload_pb";
import { requireFile, setThumbnailKey } from "../files/file-repository.js";
import { thumbnailBlobKey } from "../storage/blob-keys.js";
import { StreamedRequest } from "../storage/streamed-request.js";
import { discardBlobs, scheduleBlobRemoval } from "../storage/blob-intents.js";
import { ownWrittenBlobs, writeDigested } from "./blob-write.js";
import { assertThumbnailBytes } from "./content-signature.js";
import { thumbnailContentType } from "./supported-types.js";
import { badUpload, emptyBody } from "./upload-errors.js";
import { THUMBNAIL_LIMIT, type UploadDeps } from "./upload-deps.js";

export async function uploadThumbnail(requests: AsyncIterable<UploadThumbnailRequest>, ctx: HandlerContext, deps: UploadDeps): Promise<void> {
  const auth = requireAuth(ctx);
  const { knex, teams } = deps.files;
  const stream = await StreamedRequest.open(requests, ctx.signal);
  const fileId = stream.first.fileId;
  const file = await requireFile(knex, auth.scope, fileId);
  await teams.assertWritable(knex, auth, "file", [file.id]);
  // The image is the raw body or the form's first file part: plain form fields before it carry nothing here.
  let part = await stream.nextPart();
  while (part && part.head.value !== undefined) part = await stream.nextPart();
  if (!part) throw badUpload("upload.error.emptyBody", "The thumbnail body is missing");
  const type = thumbnailContentType(part.head.contentType, part.head.filename || undefined);
  const customerId = Number(file.customer_id);
  const key = thumbnailBlobKey(customerId, file.id, type);
  const digest = await writeDigested({ knex, store: deps.store, customerId }, key, part.body, type, { maxBytes: THUMBNAIL_LIMIT, what: "The thumbnail" });
  try {
    // "The client must supply a thumbnail": zero bytes would replace a good thumbnail with nothing.
    if (digest.size === 0) throw emptyBody("The thumbnail body is empty");
    // Served under its type, so it must be one: garbage declared image/png is refused as a file's would be.
    assertThumbnailBytes(type, digest.header, part.head.filename);
  } catch (err) {
    await discardBlobs(knex, deps.store, [key]);
    throw err;
  }
  let previous: string | null;
  try {
    previous = await knex.transaction(async (trx) => {
      await ownWrittenBlobs(trx, [key]);
      // The key replaced is the one current at commit (a concurrent thumbnail upload may have moved it).
      const current: { thumbnail_key: string | null } | undefined = await trx("file").where({ id: file.id, customer_id: customerId }).forUpdate().first("thumbnail_key");
      await setThumbnailKey(trx, customerId, file.id, key);
      const old = current?.thumbnail_key && current.thumbnail_key !== key ? current.thumbnail_key : null;
      await scheduleBlobRemoval(trx, customerId, [old]);
      return old;
    });
  } catch (err) {
    await discardBlobs(knex, deps.store, [key]);
    throw err;
  }
  const left = await discardBlobs(knex, deps.store, [previous]);
  if (left.length > 0) deps.files.logger.warn({ customerId, keys: left }, "old thumbnail left to the blob intent sweep");
}
