// blob_intent rows (migration 20261122000600_blob_intents): "this key may hold
// bytes that no committed row owns". Every blob write follows one protocol:
//   recordBlobIntents (committed on its own) -> write the blob ->
//   adoptBlobIntents in the transaction that commits the owning row;
//   on an error: discardBlobs (the blob first, then its intent).
// A crash anywhere in between leaves the intent behind, and the sweeper
// (blob-intent-sweeper.ts) removes the blob once the intent is past its grace.
// Bytes a committed change just disowned (an old thumbnail, a replaced file)
// get an intent in that change's transaction and are discarded after commit.
import type { Knex } from "knex";
import type { BlobStore } from "@signage/storage";

type Db = Knex | Knex.Transaction;

/**
 * Before writing: pass the pool so the intent is committed at once (a crash
 * after the write must find it). Inside a transaction: disowned keys.
 */
export async function recordBlobIntents(db: Db, customerId: number, keys: Array<string | null | undefined>): Promise<void> {
  const wanted = keys.filter((k): k is string => Boolean(k));
  if (wanted.length === 0) return;
  // A key recorded again restarts its grace period: never swept sooner than asked.
  await db("blob_intent").insert(wanted.map((key) => ({ key, customer_id: customerId }))).onConflict("key").merge({ created_at: db.fn.now() });
}

/**
 * In the owning row's transaction: from its commit on the blobs are owned.
 * Returns the keys whose intent was already gone, i.e. swept (their bytes may be
 * deleted): the caller must roll back instead of committing a row that points at
 * them. The row locks order this against a sweep holding the same intents.
 */
export async function adoptBlobIntents(trx: Knex.Transaction, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const deleted: Array<{ key: string }> = await trx("blob_intent").whereIn("key", keys).delete().returning("key");
  const adopted = new Set(deleted.map((r) => r.key));
  return keys.filter((k) => !adopted.has(k));
}

/**
 * Deletes unowned blobs, then the intents of those that went; an intent whose
 * blob could not be deleted stays for the sweeper. Never throws: callers are on
 * an error path or past their commit. Returns the keys left to the sweeper.
 */
export async function discardBlobs(knex: Knex, store: BlobStore, keys: Array<string | null | undefined>): Promise<string[]> {
  const wanted = keys.filter((k): k is string => Boolean(k));
  if (wanted.length === 0) return [];
  const results = await Promise.allSettled(wanted.map((k) => store.delete(k)));
  const gone = wanted.filter((_, i) => results[i].status === "fulfilled");
  const left = wanted.filter((_, i) => results[i].status === "rejected");
  if (gone.length > 0) {
    try {
      await knex("blob_intent").whereIn("key", gone).delete();
    } catch {
      // The intents stay; the sweeper deletes the (missing) blobs again and then them.
      return wanted;
    }
  }
  return left;
}
