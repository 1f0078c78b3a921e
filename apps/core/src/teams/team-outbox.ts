// Core's team facts leave through an outbox: rows written in the transaction
// of the change (by the team handlers and by the triggers of the teams
// migration), published by this relay with the row's id as the event id (so a
// re-publish after a crash deduplicates), then deleted.
import type { Knex } from "knex";
import type { EventBus } from "@signage/events";
import type { CoreLogger } from "../deps.js";

export async function writeOutbox(trx: Knex.Transaction, type: string, customerId: number | null, data: object): Promise<void> {
  await trx("team_outbox").insert({ type, customer_id: customerId, data: JSON.stringify(data) });
}

export interface OutboxRelay {
  /** Publish what is pending now (called after a team write commits; the poll covers the rest). */
  kick(): void;
  /** Resolves when nothing written before the call is left unpublished. */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

const BATCH = 200;

export function startOutboxRelay(knex: Knex, bus: EventBus, logger: CoreLogger, pollMs = 100): OutboxRelay {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  async function drainOnce(): Promise<number> {
    return knex.transaction(async (trx) => {
      const rows = await trx("team_outbox").orderBy("seq").limit(BATCH).forUpdate().skipLocked().select("seq", "id", "type", "customer_id", "data");
      for (const row of rows) {
        await bus.publish({ id: row.id, type: row.type, customerId: row.customer_id === null ? null : Number(row.customer_id), data: row.data });
      }
      if (rows.length > 0) await trx("team_outbox").whereIn("seq", rows.map((r: { seq: string }) => r.seq)).delete();
      return rows.length;
    });
  }

  async function drain(): Promise<void> {
    try {
      while (!stopped && (await drainOnce()) === BATCH);
    } catch (error) {
      if (!stopped) logger.error({ err: error }, "team outbox relay failed; retrying on the next poll");
    }
  }

  /** Runs drains one after another, never two at once. */
  function schedule(): Promise<void> {
    running = running.then(drain);
    return running;
  }

  function poll() {
    if (stopped) return;
    timer = setTimeout(() => void schedule().finally(poll), pollMs);
  }
  poll();

  return {
    kick() {
      if (!stopped) void schedule();
    },
    flush: () => schedule(),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
