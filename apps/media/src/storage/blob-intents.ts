// blob_intent rows (migrations 20261122000600, 20261122000700): "this key may
// hold bytes that no committed row owns". Two protocols share them:
//   writing:  recordBlobIntents (committed on its own) -> write the blob ->
//             adoptBlobIntents in the transaction that commits the owning row;
//             on an error: discardBlobs (the blob first, then its intent).
//   removing: scheduleBlobRemoval in the transaction that deletes (or
//             repoints) the owning row -> discardBlobs after commit.
// A crash anywhere in between leaves the intent behind and the sweeper
// (blob-intent-sweeper.ts) removes the blob: a write-ahead intent once past
// its grace period (the upload may still be running), a scheduled one at once.
// A key ending with "/" stands for the folder of keys below it
// (BlobStore.deletePrefix), so a whole package or tenant is one intent.
import type { Knex } from "knex";
import type { BlobStore } from "@signage/storage";

type Db = Knex | Knex.Transaction;
type Keys = ReadonlyArray<string | null | undefined>;

/** Rows per INSERT / DELETE statement: one array parameter each, so a 100,000-file folder is a few statements. */
const CHUNK = 5_000;
/** Store deletes in flight at once. */
const PARALLEL = 8;

/** Before writing, with the pool: the intent must be committed before the first byte (a crash after the write must find it). */
export async function recordBlobIntents(db: Db, customerId: number, keys: Keys): Promise<void> {
  // A key recorded again restarts its grace period (and is no longer due): never swept sooner than asked.
  await upsertIntents(db, customerId, keys, "NULL", "created_at = now(), due_at = NULL");
}

/**
 * In the transaction that disowns the blobs (deletes or repoints their rows):
 * from its commit on they are due for removal. Returns the keys to hand to
 * discardBlobs once committed. Never before the commit: a rollback must
 * still find the bytes, and then it takes the intents back too.
 */
export async function scheduleBlobRemoval(trx: Knex.Transaction, customerId: number, keys: Keys): Promise<string[]> {
  return upsertIntents(trx, customerId, keys, "now()", "due_at = now()");
}

async function upsertIntents(db: Db, customerId: number, keys: Keys, dueAt: string, onConflict: string): Promise<string[]> {
  const wanted = distinct(keys);
  for (const chunk of chunks(wanted)) {
    await db.raw(
      `INSERT INTO blob_intent (key, customer_id, due_at) SELECT k, ?, ${dueAt} FROM unnest(?::text[]) AS k
       ON CONFLICT (key) DO UPDATE SET ${onConflict}`,
      [customerId, chunk],
    );
  }
  return wanted;
}

/**
 * In the owning row's transaction: from its commit on the blobs are owned.
 * Returns the keys whose intent was already gone, i.e. swept (their bytes may be
 * deleted): the caller must roll back instead of committing a row that points at
 * them. The row locks order this against a sweep holding the same intents.
 */
export async function adoptBlobIntents(trx: Knex.Transaction, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const adopted = new Set<string>();
  for (const chunk of chunks(distinct(keys))) {
    const deleted: Array<{ key: string }> = await trx("blob_intent").whereRaw("key = ANY(?::text[])", [chunk]).delete().returning("key");
    for (const r of deleted) adopted.add(r.key);
  }
  return keys.filter((k) => !adopted.has(k));
}

/**
 * Deletes unowned blobs, then the intents of those that went; an intent whose
 * blob could not be deleted stays for the sweeper. Never throws: callers are on
 * an error path or past their commit. Returns the keys left to the sweeper.
 */
export async function discardBlobs(knex: Knex, store: BlobStore, keys: Keys): Promise<string[]> {
  const wanted = distinct(keys);
  const left = await deleteEach(store, wanted);
  const failed = new Set(left);
  try {
    for (const chunk of chunks(wanted.filter((k) => !failed.has(k)))) {
      await knex("blob_intent").whereRaw("key = ANY(?::text[])", [chunk]).delete();
    }
  } catch {
    // The intents stay; the sweeper deletes the (missing) blobs again and then them.
    return wanted;
  }
  return left;
}

/**
 * Whether no committed row owns `key`: an intent names it, or a folder key above it
 * (a tenant's purge). A delete, a replace with removeOldFile or a new thumbnail
 * schedules the intent in the transaction that disowns the bytes, and the intent
 * goes only after the bytes (discardBlobs, the sweeper): so from the owner's
 * commit on, either this says so or the bytes are gone. A primary-key lookup of
 * at most a few keys, cheap enough for every download.
 */
export async function isDisowned(db: Db, key: string): Promise<boolean> {
  const keys = [key];
  for (let slash = key.indexOf("/"); slash >= 0 && slash < key.length - 1; slash = key.indexOf("/", slash + 1)) keys.push(key.slice(0, slash + 1));
  const { rows } = await db.raw("SELECT 1 FROM blob_intent WHERE key = ANY(?::text[]) LIMIT 1", [keys]);
  return rows.length > 0;
}

/** Deletes one intent's bytes: a blob, or every blob below a folder key. Idempotent. */
export function deleteIntentBlob(store: BlobStore, key: string): Promise<void> {
  return key.endsWith("/") ? store.deletePrefix(key) : store.delete(key);
}

/** Deletes the blobs a few at a time; returns the keys whose delete failed (reported to `onError`). */
export async function deleteEach(store: BlobStore, keys: readonly string[], onError?: (err: unknown, key: string) => void): Promise<string[]> {
  const failed: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++];
      try {
        await deleteIntentBlob(store, key);
      } catch (err) {
        failed.push(key);
        onError?.(err, key);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, keys.length) }, worker));
  return failed;
}

function distinct(keys: Keys): string[] {
  return [...new Set(keys.filter((k): k is string => Boolean(k)))];
}

function* chunks<T>(items: readonly T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += CHUNK) yield items.slice(i, i + CHUNK);
}
