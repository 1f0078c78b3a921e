// BlobAccessService: the gateway paths of presigned URLs. No bearer token:
// the HMAC signature is checked here before the store is touched.
// Downloads (`location`, `thumbnail`) stream from either store with Range
// (blob-stream.ts), for keys a committed file still owns: one primary-key lookup
// of blob_intent tells a deleted (or replaced) file's bytes that wait for their removal.
import type { ServiceImpl } from "@connectrpc/connect";
import { verifyPresignedBlob } from "@signage/storage";
import type { BlobAccessService, GetPresignedBlobRequest, GetPresignedBlobResponse } from "@signage/contracts/signage/media/v1/upload_pb";
import { putPresignedPart } from "../uploads/chunked-parts.js";
import type { UploadDeps } from "../uploads/upload-deps.js";
import { contentTypeOfKey } from "./blob-keys.js";
import { isDisowned } from "./blob-intents.js";
import { customerOfBlobKey, refuseBlockedTenant } from "./tenant-block.js";
import { blobNotFound, checkSignature, streamBlob } from "./blob-stream.js";

async function* download(req: GetPresignedBlobRequest, deps: UploadDeps): AsyncGenerator<Partial<GetPresignedBlobResponse>> {
  const now = (deps.now ?? Date.now)();
  const { check, key } = verifyPresignedBlob(deps.storage.signer, { blob: req.blob, expires: req.expires, filename: req.filename, contentType: req.contentType, signature: req.signature }, now);
  checkSignature(check);
  // A deleted (or replaced and removed) file's URL stops serving at the delete's commit, not
  // when its bytes are finally removed (after the response, or by the sweep after a crash).
  const [disowned] = await Promise.all([isDisowned(deps.files.knex, key), refuseBlockedTenant(deps.files.knex, customerOfBlobKey(key), blobNotFound)]);
  if (disowned) throw blobNotFound();
  yield* streamBlob(deps.store, key, {
    range: req.range,
    ifNoneMatch: req.ifNoneMatch,
    contentType: req.contentType || contentTypeOfKey(key),
    filename: req.filename,
    expiresAt: Number(req.expires),
    now,
  }) as AsyncGenerator<Partial<GetPresignedBlobResponse>>;
}

export function blobAccessService(deps: UploadDeps): ServiceImpl<typeof BlobAccessService> {
  return {
    putPresignedPart: async (requests, ctx) => ({ ...(await putPresignedPart(requests, deps, ctx.signal)) }) as never,
    getPresignedBlob: (req) => download(req, deps) as never,
  };
}
