// "No garbage left behind by a crash": a periodic job on every replica removes
// the blobs of due intents (scheduled removals: their owner is committed gone)
// and of intents older than the grace period (longer than any legitimate
// upload, so a live upload's blob is never taken), then the intents. Replicas
// share the work: each batch is claimed FOR UPDATE SKIP LOCKED and the intents
// are deleted in the claiming transaction, so every blob is deleted by one
// sweeper only. Deleting a blob that is already gone is fine (idempotent); a
// blob the store fails to delete keeps its intent for the next round.
import type { Knex } from "knex";
import { deleteEach } from "./blob-intents.js";
import type { BlobStore } from "@signage/storage";

export interface BlobIntentSweepOptions {
  /** Write-ahead intents younger than this (by the database clock) are left alone; due ones are not. */
  graceMs: number;
  batch?: number;
  /** Told about each blob the store failed to delete. */
  onError?: (err: unknown, key: string) => void;
}

/** One sweep; returns how many intents (and their blobs) it removed. */
export async function sweepBlobIntents(knex: Knex, store: BlobStore, options: BlobIntentSweepOptions): Promise<number> {
  const batch = options.batch ?? 100;
  const graceMs = Math.max(0, Math.trunc(options.graceMs));
  let swept = 0;
  for (;;) {
    const round = await knex.transaction(async (trx) => {
      // Due removals first; then write-ahead intents past the grace (the due ones are all claimed by then).
      const keys = await claim(trx, "due_at <= now()", "due_at", [], batch);
      if (keys.length < batch) keys.push(...(await claim(trx, STALE, "created_at", [graceMs], batch - keys.length)));
      const failed = new Set(await deleteEach(store, keys, options.onError));
      const gone = keys.filter((k) => !failed.has(k));
      if (gone.length > 0) await trx("blob_intent").whereRaw("key = ANY(?::text[])", [gone]).delete();
      return { claimed: keys.length, gone: gone.length };
    });
    swept += round.gone;
    // A short batch is the end; so is a failure (the same intents would come first again).
    if (round.claimed < batch || round.gone < round.claimed) return swept;
  }
}

const STALE = "due_at IS NULL AND created_at <= now() - (?::bigint * interval '1 millisecond')";

/** One index-ordered claim (two queries rather than an OR, so each stays a top-N scan of its own index). */
async function claim(trx: Knex.Transaction, condition: string, order: string, bindings: Knex.RawBinding[], limit: number): Promise<string[]> {
  const { rows } = await trx.raw(`SELECT key FROM blob_intent WHERE ${condition} ORDER BY ${order} LIMIT ? FOR UPDATE SKIP LOCKED`, [...bindings, limit]);
  return (rows as Array<{ key: string }>).map((r) => r.key);
}
