import type { Knex } from "knex";
import type { Inbox } from "./inbox.js";
import { inboxTable, type InboxTableOptions } from "./table.js";

export interface KnexInbox extends Inbox<Knex.Transaction> {
  /**
   * Inserts the mark unless present; true if this call inserted it. Inside a
   * transaction the row lock makes a concurrent duplicate wait for our commit
   * (then skip) or rollback (then proceed), which is what withInbox relies on.
   */
  claim(consumer: string, eventId: string, trx?: Knex.Transaction): Promise<boolean>;
  /**
   * Deletes marks older than `before`; returns how many. Redeliveries older than the stream's retention cannot happen.
   * In statements of `batchSize` rows (default 10,000), at most `maxBatches` (default 100) per call: no call holds a
   * long transaction or many locks; what is left goes on the next call.
   */
  prune(before: Date, options?: { batchSize?: number; maxBatches?: number }): Promise<number>;
}

export function createKnexInbox(knex: Knex, opts: InboxTableOptions = {}): KnexInbox {
  const table = (trx?: Knex.Transaction) => inboxTable(trx ?? knex, opts);

  async function claim(consumer: string, eventId: string, trx?: Knex.Transaction): Promise<boolean> {
    const rows = await table(trx)
      .insert({ consumer, event_id: eventId, processed_at: knex.fn.now() })
      .onConflict(["consumer", "event_id"])
      .ignore()
      .returning("event_id");
    return rows.length > 0;
  }

  return {
    claim,
    async seen(consumer, eventId, trx) {
      const row = await table(trx).where({ consumer, event_id: eventId }).first("event_id");
      return row !== undefined;
    },
    async markSeen(consumer, eventId, trx) {
      await claim(consumer, eventId, trx);
    },
    async prune(before, options = {}) {
      const batchSize = options.batchSize ?? 10_000;
      const maxBatches = options.maxBatches ?? 100;
      let removed = 0;
      for (let batch = 0; batch < maxBatches; batch++) {
        const oldest = table().where("processed_at", "<", before).limit(batchSize).select(knex.raw("ctid"));
        const count = await table().whereIn(knex.raw("ctid") as never, oldest).delete();
        removed += count;
        if (count < batchSize) break;
      }
      return removed;
    },
  };
}
