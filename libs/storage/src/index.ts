export {
  assertValidKey,
  BlobNotFoundError,
  BlobTooLargeError,
  IncompleteBodyError,
  PartChangedError,
  RangeNotSatisfiableError,
  resolveRange,
  UploadNotFoundError,
  type BlobInfo,
  type BlobRead,
  type BlobStore,
  type ByteRange,
  type MultipartStore,
  type PresignOptions,
  type UploadedPart,
} from "./blob-store.js";
export { ByteCounter } from "./byte-limit.js";
export { UrlSigner, signedQuery, type SignatureCheck } from "./url-signer.js";
export {
  createFilesystemBlobStore,
  type FilesystemBlobStore,
  type FilesystemBlobStoreOptions,
  type PresignVerifier,
} from "./filesystem/filesystem-blob-store.js";
export { flushBehind, flushSlots, FLUSH_BEHIND_BYTES, type FlushBehind, type FlushSlots } from "./filesystem/flush-behind.js";
export {
  presignedBlobUrl,
  presignedPartUrl,
  presignedPrefixToken,
  verifyPresignedBlob,
  verifyPresignedPart,
  verifyPresignedPrefixToken,
  type PresignedBlobQuery,
  type PresignedPartQuery,
} from "./presigned-urls.js";
export { decodeKeySegment, encodeKeySegment, PRESIGNED_BLOB_PATH, PRESIGNED_PART_PATH } from "./filesystem/fs-paths.js";
export type { S3Settings } from "./s3/s3-blob-store.js";
export { createBlobStoreFromUrl, type BlobStoreFromUrlOptions } from "./from-url.js";
