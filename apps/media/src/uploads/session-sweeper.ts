// "expired sessions are swept": a periodic job on every replica. Each run
// claims expired sessions with FOR UPDATE SKIP LOCKED (see
// claimExpiredSessions), aborts their multipart uploads and deletes the rows
// in the same transaction, so replicas never double-sweep and a failed abort
// is retried on the next run. A session left `completing` by a crash (its claim
// older than COMPLETE_CLAIM_TTL_MS; a live complete's session is left to it) may
// have its parts already assembled into its key, and no file row can own that
// key while the session exists (the row's insert deletes the session), so the
// key is deleted too (idempotent when nothing was assembled).
import type { Logger } from "@signage/platform";
import type { Knex } from "knex";
import type { BlobStore } from "@signage/storage";
import { claimExpiredSessions } from "./session-repository.js";

export async function sweepExpiredSessions(knex: Knex, store: BlobStore, now = new Date(), batch = 50): Promise<number> {
  let swept = 0;
  for (;;) {
    const n = await knex.transaction(async (trx) => {
      const rows = await claimExpiredSessions(trx, now, batch);
      for (const row of rows) {
        await store.multipart.abort(row.storage_key, row.store_upload_id);
        await store.delete(row.storage_key);
      }
      return rows.length;
    });
    swept += n;
    if (n < batch) return swept;
  }
}
