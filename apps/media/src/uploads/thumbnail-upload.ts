// PUT /api/v2/file/upload/{fileId}/thumbnail: "body image/* binary" for any
// file id ("The server never generates thumbnails. The client must supply a
// thumbnail for every file of every type"). The new thumbnail gets a new key;
// the row points at it once stored, then the old bytes go.
import type { HandlerContext } from "@connectrpc/connect";
import { requireAuth } from "@signage/auth";
import type { UploadThumbnailRequest } from "@signage/contracts/signage/media/v1/upload_pb";
import { requireFile, setThumbnailKey } from "../files/file-repository.js";
import { thumbnailBlobKey } from "../storage/blob-keys.js";
import { StreamedRequest } from "../storage/streamed-request.js";
import { writeDigested } from "./blob-write.js";
import { unsupportedMediaType } from "./supported-types.js";
import { badUpload } from "./upload-errors.js";
import { THUMBNAIL_LIMIT, type UploadDeps } from "./upload-deps.js";

export async function uploadThumbnail(requests: AsyncIterable<UploadThumbnailRequest>, ctx: HandlerContext, deps: UploadDeps): Promise<void> {
  const auth = requireAuth(ctx);
  const { knex, teams } = deps.files;
  const stream = await StreamedRequest.open(requests, ctx.signal);
  const fileId = stream.first.fileId;
  const file = await requireFile(knex, auth.scope, fileId);
  await teams.assertWritable(knex, auth, "file", [file.id]);
  const part = await stream.nextPart();
  if (!part) throw badUpload("upload.error.emptyBody", "The thumbnail body is missing");
  const type = (part.head.contentType || "").split(";")[0].trim().toLowerCase();
  if (!type.startsWith("image/")) throw unsupportedMediaType(type, part.head.filename || undefined);
  const customerId = Number(file.customer_id);
  const key = thumbnailBlobKey(customerId, file.id, type);
  await writeDigested(deps.store, key, part.body, type, { maxBytes: THUMBNAIL_LIMIT, what: "The thumbnail" });
  try {
    await setThumbnailKey(knex, customerId, file.id, key);
  } catch (err) {
    await deps.store.delete(key).catch(() => undefined);
    throw err;
  }
  if (file.thumbnail_key && file.thumbnail_key !== key) await deps.store.delete(file.thumbnail_key).catch(() => undefined);
}
