// "expired sessions are swept": a periodic job on every replica. Each run
// claims expired sessions with FOR UPDATE SKIP LOCKED (see
// claimExpiredSessions), aborts their multipart uploads and deletes the rows
// in the same transaction, so replicas never double-sweep and a failed abort
// is retried on the next run.
import type { Logger } from "@signage/platform";
import type { Knex } from "knex";
import type { BlobStore } from "@signage/storage";
import { claimExpiredSessions } from "./session-repository.js";

export async function sweepExpiredSessions(knex: Knex, store: BlobStore, now = new Date(), batch = 50): Promise<number> {
  let swept = 0;
  for (;;) {
    const n = await knex.transaction(async (trx) => {
      const rows = await claimExpiredSessions(trx, now, batch);
      for (const row of rows) await store.multipart.abort(row.storage_key, row.store_upload_id);
      return rows.length;
    });
    swept += n;
    if (n < batch) return swept;
  }
}

export function scheduleSessionSweep(knex: Knex, store: BlobStore, logger: Logger, intervalMs: number): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = sweepExpiredSessions(knex, store)
      .then((n) => n > 0 && logger.info({ swept: n }, "expired upload sessions swept"))
      .catch((err) => logger.warn({ err }, "upload session sweep failed"))
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
