// Core's team facts leave through the service's transactional outbox
// (libs/events): written in the transaction of the change — by the team
// handlers and by the triggers of the teams migration — and published by the
// relay every service module runs.
import type { Knex } from "knex";
import type { Outbox } from "@signage/events";

export type TeamFactWriter = (trx: Knex.Transaction, type: string, customerId: number | null, data: object) => Promise<void>;

export function teamFactWriter(outbox: Outbox): TeamFactWriter {
  return async (trx, type, customerId, data) => {
    await outbox.enqueue(trx, { type, customerId, data });
  };
}
