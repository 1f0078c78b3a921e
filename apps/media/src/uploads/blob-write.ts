// Streams one body part into the blob store through a FileDigest, mapping the
// store's size refusal to the documented errors (413, or 507 when it was the
// quota that ran out). Every blob an upload writes is announced first by a
// committed blob intent (storage/blob-intents.ts) and owned by the row's
// transaction through ownWrittenBlobs, so a crash in between leaves nothing
// the intent sweeper does not find.
import type { Readable } from "node:stream";
import type { Knex } from "knex";
import { BlobTooLargeError, type BlobStore } from "@signage/storage";
import { adoptBlobIntents, discardBlobs, recordBlobIntents } from "../storage/blob-intents.js";
import { FileDigest } from "./file-digest.js";
import { uploadGcPacer } from "./gc-pacer.js";
import { insufficientStorage, payloadTooLarge, uploadOutlivedGrace } from "./upload-errors.js";
import type { Quota } from "./quota.js";

export interface WriteLimits {
  /** The documented per-body limit: bodies must stay below it... */
  maxBytes: number;
  what: string;
  /** ...and within what the quota has left. */
  quota?: { quota: Quota; remaining: number };
}

/** Where an upload's blobs go: the store, and the database of their intents. */
export interface BlobTarget {
  knex: Knex;
  store: BlobStore;
  customerId: number;
}

export async function writeDigested(target: BlobTarget, key: string, body: Readable, contentType: string, limits: WriteLimits): Promise<FileDigest> {
  const { store } = target;
  await recordBlobIntents(target.knex, target.customerId, [key]);
  const digest = new FileDigest();
  body.on("error", (e) => digest.destroy(e));
  // The store reads the digest's errors through its own pipeline, attached only once it is ready
  // to write (after a mkdir, an open, an S3 call): a body failing before that (a truncated or
  // malformed form, a client gone) must not go unheard meanwhile, or it is an uncaught exception
  // that ends the process. The store's pipeline still fails with it (chunked-parts.ts does the same).
  digest.on("error", () => undefined);
  const remaining = limits.quota?.remaining ?? Number.POSITIVE_INFINITY;
  const maxSize = Math.min(limits.maxBytes, remaining);
  try {
    await store.put(key, body.pipe(uploadGcPacer.through()).pipe(digest), { contentType, maxSize });
  } catch (err) {
    await discardBlobs(target.knex, store, [key]);
    if (!(err instanceof BlobTooLargeError)) throw err;
    if (remaining < limits.maxBytes && limits.quota) {
      throw insufficientStorage(limits.quota.quota.limit ?? 0, limits.quota.quota.used, digest.size);
    }
    throw payloadTooLarge(limits.maxBytes, limits.what);
  }
  return digest;
}

/**
 * In the transaction that commits the owning row(s): the blobs' intents go with
 * it. Refuses (rolling the row back) when an intent was already swept, since
 * the bytes it guarded may be gone.
 */
export async function ownWrittenBlobs(trx: Knex.Transaction, keys: string[]): Promise<void> {
  const lost = await adoptBlobIntents(trx, keys);
  if (lost.length > 0) throw uploadOutlivedGrace(lost.length);
}
