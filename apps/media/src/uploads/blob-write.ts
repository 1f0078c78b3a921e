// Streams one body part into the blob store through a FileDigest, mapping the
// store's size refusal to the documented errors (413, or 507 when it was the
// quota that ran out).
import type { Readable } from "node:stream";
import { BlobTooLargeError, type BlobStore } from "@signage/storage";
import { FileDigest } from "./file-digest.js";
import { uploadGcPacer } from "./gc-pacer.js";
import { insufficientStorage, payloadTooLarge } from "./upload-errors.js";
import type { Quota } from "./quota.js";

export interface WriteLimits {
  /** The documented per-body limit: bodies must stay below it... */
  maxBytes: number;
  what: string;
  /** ...and within what the quota has left. */
  quota?: { quota: Quota; remaining: number };
}

export async function writeDigested(store: BlobStore, key: string, body: Readable, contentType: string, limits: WriteLimits): Promise<FileDigest> {
  const digest = new FileDigest();
  body.on("error", (e) => digest.destroy(e));
  const remaining = limits.quota?.remaining ?? Number.POSITIVE_INFINITY;
  const maxSize = Math.min(limits.maxBytes, remaining);
  try {
    await store.put(key, body.pipe(uploadGcPacer.through()).pipe(digest), { contentType, maxSize });
  } catch (err) {
    await store.delete(key).catch(() => undefined);
    if (!(err instanceof BlobTooLargeError)) throw err;
    if (remaining < limits.maxBytes && limits.quota) {
      throw insufficientStorage(limits.quota.quota.limit ?? 0, limits.quota.quota.used, digest.size);
    }
    throw payloadTooLarge(limits.maxBytes, limits.what);
  }
  return digest;
}
