// Gateway paths that serve the filesystem store's presigned URLs. The media
// contract (upload.proto) maps the same paths to its PUBLIC RPCs, which
// verify the signature before touching the store.
export const PRESIGNED_PART_PATH = "/storage/v1/parts";
export const PRESIGNED_BLOB_PATH = "/storage/v1/blobs";

/** Keys travel as one URL segment. */
export function encodeKeySegment(key: string): string {
  return Buffer.from(key, "utf8").toString("base64url");
}

export function decodeKeySegment(segment: string): string {
  return Buffer.from(segment, "base64url").toString("utf8");
}
