// Error keys of uploads (document 1 "Other upload outcomes preserved by the
// service: 400, 401, 403, 404, 413, 415, 507"). 413 and 507 map in the
// gateway's error table by key.
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import type { JsonObject } from "@bufbuild/protobuf";

export function payloadTooLarge(maxBytes: number, what: string) {
  return serviceError(Code.InvalidArgument, "upload.error.payloadTooLarge", `${what} exceeds ${maxBytes} bytes`, { maxBytes });
}

export function insufficientStorage(storageSize: number, used: number, needed: number) {
  return serviceError(Code.ResourceExhausted, "storage.error.insufficientStorage", "The upload would exceed the customer's storage size", { storageSize, used, needed });
}

export function badUpload(key: string, message: string, details: JsonObject = {}) {
  return serviceError(Code.InvalidArgument, key, message, details);
}

/** A body (file, preview, thumbnail) of zero bytes: nothing a player could show. */
export function emptyBody(message: string, filename?: string) {
  return serviceError(Code.InvalidArgument, "upload.error.emptyBody", message, filename === undefined ? {} : { filename });
}

/** Without `uploadId` (a presigned part URL names the storage's upload, which the client never saw): the URL's session. */
export function sessionNotFound(uploadId?: string) {
  const which = uploadId === undefined ? "The upload session of this presigned URL was" : `Upload session '${uploadId}'`;
  return serviceError(Code.NotFound, "upload.error.sessionNotFound", `${which} not found (finished, cancelled or expired)`, uploadId === undefined ? {} : { uploadId });
}

/** The upload outlived the blob-intent grace period: its bytes may already be swept as a crash's leftover. */
export function uploadOutlivedGrace(graceKeys: number) {
  return serviceError(Code.InvalidArgument, "upload.error.expired", "The upload took longer than the storage keeps unclaimed bytes; upload it again", { blobs: graceKeys });
}
