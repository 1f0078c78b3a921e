// "No garbage left behind by a crash": a periodic job on every replica removes
// the blobs of intents older than the grace period (longer than any legitimate
// upload, so a live upload's blob is never taken), then the intents. Replicas
// share the work: each batch is claimed FOR UPDATE SKIP LOCKED and the intents
// are deleted in the claiming transaction, so every blob is deleted by one
// sweeper only. Deleting a blob that is already gone is fine (idempotent); a
// blob the store fails to delete keeps its intent for the next round.
import type { Knex } from "knex";
import type { Logger } from "@signage/platform";
import type { BlobStore } from "@signage/storage";

export interface BlobIntentSweepOptions {
  /** Intents younger than this (by the database clock) are left alone. */
  graceMs: number;
  batch?: number;
  /** Told about each blob the store failed to delete. */
  onError?: (err: unknown, key: string) => void;
}

/** One sweep; returns how many intents (and their blobs) it removed. */
export async function sweepBlobIntents(knex: Knex, store: BlobStore, options: BlobIntentSweepOptions): Promise<number> {
  const batch = options.batch ?? 100;
  let swept = 0;
  for (;;) {
    const round = await knex.transaction(async (trx) => {
      const { rows } = await trx.raw(
        `SELECT key FROM blob_intent WHERE created_at <= now() - (?::bigint * interval '1 millisecond')
          ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED`,
        [Math.max(0, Math.trunc(options.graceMs)), batch],
      );
      const keys = (rows as Array<{ key: string }>).map((r) => r.key);
      const gone: string[] = [];
      for (const key of keys) {
        try {
          await store.delete(key);
          gone.push(key);
        } catch (err) {
          options.onError?.(err, key);
        }
      }
      if (gone.length > 0) await trx("blob_intent").whereIn("key", gone).delete();
      return { claimed: keys.length, gone: gone.length };
    });
    swept += round.gone;
    // A short batch is the end; so is a failure (the same intents would come first again).
    if (round.claimed < batch || round.gone < round.claimed) return swept;
  }
}
