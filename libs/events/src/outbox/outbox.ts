// Transactional outbox: an event is stored in the same transaction as the
// change it announces, so a crash between commit and publish loses nothing.
// The relay publishes rows in order and deletes them once the bus accepted
// them; the event id doubles as `Nats-Msg-Id`, so a re-publish after a crash
// mid-batch is deduplicated by JetStream and by consumers' inboxes.
import { randomUUID } from "node:crypto";
import { ROOT_CONTEXT, context, propagation } from "@opentelemetry/api";
import type { Knex } from "knex";
import type { EventBus } from "../bus.js";
import type { PublishInput } from "../envelope.js";
import { noopLogger, type Logger } from "../logger.js";
import { assertEventType } from "../subjects.js";
import { DEFAULT_OUTBOX_TABLE } from "./table.js";

export interface OutboxOptions {
  knex: Knex;
  bus: EventBus;
  logger?: Logger;
  table?: string;
  /** Poll for rows written without enqueue (database triggers), left by a crash or a failed publish. Default 250 ms. */
  pollIntervalMs?: number;
  /** Rows published per relay transaction. Default 100. */
  batchSize?: number;
}

export interface Outbox {
  /** Stores the event in `trx`; it is published after `trx` commits (never if it rolls back). Returns the event id. */
  enqueue<T>(trx: Knex.Transaction, event: PublishInput<T>): Promise<string>;
  /** Publishes everything pending now; resolves with the number published. */
  flush(): Promise<number>;
  /** Starts the background relay (poll + publish right after each enqueuing commit). */
  start(): void;
  /** Stops the relay after the batch in flight. */
  stop(): Promise<void>;
}

interface OutboxRow {
  seq: string | number;
  event_id: string;
  type: string;
  customer_id: number | null;
  data: unknown;
  traceparent: string | null;
}

export function createOutbox(options: OutboxOptions): Outbox {
  const { knex, bus } = options;
  const logger = options.logger ?? noopLogger;
  const table = options.table ?? DEFAULT_OUTBOX_TABLE;
  const batchSize = options.batchSize ?? 100;
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<number> | undefined;
  let again = false;

  async function publishBatch(): Promise<number> {
    return knex.transaction(async (trx) => {
      // SKIP LOCKED: replicas relaying the same schema never publish a row twice concurrently.
      const rows: OutboxRow[] = await trx(table).select("*").orderBy("seq").limit(batchSize).forUpdate().skipLocked();
      for (const row of rows) {
        // Publish inside the trace of the request that enqueued the event.
        const parent = row.traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent: row.traceparent }) : ROOT_CONTEXT;
        await context.with(parent, () => bus.publish({ id: row.event_id, type: row.type, customerId: row.customer_id === null ? null : Number(row.customer_id), data: row.data }));
      }
      if (rows.length > 0) await trx(table).whereIn("seq", rows.map((r) => r.seq)).delete();
      return rows.length;
    });
  }

  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await publishBatch();
      total += n;
      if (n < batchSize) return total;
    }
  }

  /** One drain at a time; a kick during a drain schedules one more. */
  function flush(): Promise<number> {
    if (inFlight) {
      again = true;
      return inFlight;
    }
    inFlight = drain().finally(() => {
      inFlight = undefined;
      if (again && running) {
        again = false;
        void flush().catch((error) => logger.warn({ err: error }, "outbox relay failed; will retry"));
      }
    });
    return inFlight;
  }

  function kick() {
    if (running) void flush().catch((error) => logger.warn({ err: error }, "outbox relay failed; will retry"));
  }

  function schedule() {
    if (!running) return;
    timer = setTimeout(async () => {
      await flush().catch((error) => logger.warn({ err: error }, "outbox relay failed; will retry"));
      schedule();
    }, pollIntervalMs);
    timer.unref?.();
  }

  return {
    async enqueue(trx, event) {
      assertEventType(event.type);
      const id = event.id ?? randomUUID();
      const carrier: Record<string, string> = {};
      propagation.inject(context.active(), carrier);
      await trx(table).insert({ event_id: id, type: event.type, customer_id: event.customerId, data: JSON.stringify(event.data ?? null), traceparent: carrier.traceparent ?? null });
      // Publish as soon as the transaction commits; the poll covers crashes.
      trx.executionPromise.then(kick, () => undefined);
      return id;
    },
    flush,
    start() {
      if (running) return;
      running = true;
      kick();
      schedule();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await inFlight?.catch(() => undefined);
    },
  };
}
