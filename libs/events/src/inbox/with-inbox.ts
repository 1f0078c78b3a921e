import type { Knex } from "knex";
import type { EventHandler } from "../bus.js";
import type { EventEnvelope } from "../envelope.js";
import { createKnexInbox } from "./knex-inbox.js";
import type { InboxTableOptions } from "./table.js";

export type TransactionalHandler<T> = (event: EventEnvelope<T>, trx: Knex.Transaction) => Promise<void>;

/**
 * Exactly-once effect for database handlers: inbox claim, handler writes and
 * commit happen in one transaction. A duplicate delivery finds the mark and
 * skips; a failure or crash rolls back writes and mark together, so the
 * redelivery runs the handler again from scratch.
 */
export function withInbox<T>(
  knex: Knex,
  consumer: string,
  handler: TransactionalHandler<T>,
  opts: InboxTableOptions = {},
): EventHandler<T> {
  const inbox = createKnexInbox(knex, opts);
  return (event) =>
    knex.transaction(async (trx) => {
      if (!(await inbox.claim(consumer, event.id, trx))) return;
      await handler(event, trx);
    });
}
