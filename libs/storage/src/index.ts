export { BlobNotFoundError, type BlobInfo, type BlobRead, type BlobStore, type ByteRange } from "./blob-store.js";
