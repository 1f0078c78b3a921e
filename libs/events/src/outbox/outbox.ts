// Transactional outbox: an event is stored in the same transaction as the
// change it announces, so a crash between commit and publish loses nothing.
// The relay publishes rows in order and deletes them once the bus accepted
// them; the event id doubles as `Nats-Msg-Id`, so a re-publish after a crash
// mid-batch is deduplicated by JetStream and by consumers' inboxes. Replicas
// relaying one table take turns (advisory lock), so order holds across them.
import { randomUUID } from "node:crypto";
import { ROOT_CONTEXT, context, metrics, propagation, type Meter } from "@opentelemetry/api";
import type { Knex } from "knex";
import type { EventBus } from "../bus.js";
import type { PublishInput } from "../envelope.js";
import { noopLogger, type Logger } from "../logger.js";
import { assertEventType } from "../subjects.js";
import { DEFAULT_OUTBOX_TABLE } from "./table.js";
import { observeOutbox, type OutboxGauges } from "./outbox-metrics.js";

export interface OutboxOptions {
  knex: Knex;
  bus: EventBus;
  logger?: Logger;
  table?: string;
  /** Poll for rows written without enqueue (database triggers), left by a crash or a failed publish. Default 250 ms. */
  pollIntervalMs?: number;
  /** Rows published per relay transaction. Default 100. */
  batchSize?: number;
  /**
   * Largest event (serialized envelope) `enqueue` accepts. A bigger one could never be
   * published (NATS max_payload) and would block every later event of the service, so
   * it is refused in the writer's transaction instead. Default 1 MiB less 8 KiB for
   * headers, matching the NATS server's default max_payload.
   */
  maxEventBytes?: number;
  /** Where the relay reports its backlog while it runs (outbox-metrics.ts). Default: the global meter provider's. */
  meter?: Meter;
  /** The owning service, as the backlog metrics' `signage.service` attribute. */
  service?: string;
}

export const DEFAULT_MAX_EVENT_BYTES = 1024 * 1024 - 8 * 1024;

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
  const maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<number> | undefined;
  let again = false;
  let gauges: OutboxGauges | undefined;

  async function publishBatch(): Promise<number> {
    return knex.transaction(async (trx) => {
      // Replicas relaying the same table take turns: with SKIP LOCKED alone, a second
      // relay would publish the next rows while the first is still publishing earlier
      // ones, and a backlog would reach consumers out of order. Held until commit.
      await trx.raw("select pg_advisory_xact_lock(?, hashtext(?::regclass::oid::text))", [OUTBOX_LOCK_SPACE, table]);
      const rows: OutboxRow[] = await trx(table).select("*").orderBy("seq").limit(batchSize).forUpdate().skipLocked();
      for (const row of rows) {
        // Publish inside the trace of the request that enqueued the event.
        const parent = row.traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent: row.traceparent }) : ROOT_CONTEXT;
        try {
          await context.with(parent, () => bus.publish({ id: row.event_id, type: row.type, customerId: row.customer_id === null ? null : Number(row.customer_id), seq: Number(row.seq), data: row.data }));
        } catch (err) {
          // Later rows wait for this one (order): say which event holds the relay up.
          throw new OutboxPublishError(row, err);
        }
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
    // The relay's own work (its transactions, lock, select and delete) belongs to no
    // request: a kick runs in the context of the commit that triggered it, and would hang
    // this SQL, other requests' rows included, under that request's span after it ended.
    // Each event's publish still joins its own request's trace (its stored traceparent).
    inFlight = context.with(ROOT_CONTEXT, drain).finally(() => {
      inFlight = undefined;
      if (again && running) {
        again = false;
        void flush().catch(logRelayFailure);
      }
    });
    return inFlight;
  }

  function logRelayFailure(error: unknown) {
    const at = error instanceof OutboxPublishError ? { eventId: error.eventId, eventType: error.eventType, err: error.cause } : { err: error };
    logger.warn(at, "outbox relay failed; will retry");
  }

  function kick() {
    if (running) void flush().catch(logRelayFailure);
  }

  /**
   * The poll finds the table empty nearly always (every enqueue kicks a flush at its commit):
   * one plain read then, instead of a relay transaction (BEGIN, advisory lock, locking select,
   * COMMIT) four times a second per replica for nothing.
   */
  async function poll(): Promise<void> {
    if (!inFlight) {
      const pending = await context.with(ROOT_CONTEXT, () => knex(table).first(knex.raw("1 as pending")));
      if (!pending) return;
    }
    await flush();
  }

  function schedule() {
    if (!running) return;
    timer = setTimeout(async () => {
      await poll().catch(logRelayFailure);
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
      const data = JSON.stringify(event.data ?? null);
      const size = envelopeBytes(id, event.type, event.customerId, data, carrier.traceparent);
      if (size > maxEventBytes) {
        throw new Error(`event ${event.type} is ${size} bytes, over the bus limit of ${maxEventBytes} bytes (NATS max_payload): split it into smaller events`);
      }
      await trx(table).insert({ event_id: id, type: event.type, customer_id: event.customerId, data, traceparent: carrier.traceparent ?? null });
      // Publish as soon as the transaction commits; the poll covers crashes.
      trx.executionPromise.then(kick, () => undefined);
      return id;
    },
    flush,
    start() {
      if (running) return;
      running = true;
      gauges = observeOutbox(options.meter ?? metrics.getMeter("@signage/events"), knex, table, options.service ? { "signage.service": options.service } : {});
      kick();
      schedule();
    },
    async stop() {
      running = false;
      gauges?.remove();
      gauges = undefined;
      if (timer) clearTimeout(timer);
      await inFlight?.catch(() => undefined);
    },
  };
}

/** First key of the relay's advisory lock (the second is derived from the table). */
const OUTBOX_LOCK_SPACE = 0x0e7b0c5;

/** A row the bus refused; the relay stops there (order) and retries. */
class OutboxPublishError extends Error {
  readonly eventId: string;
  readonly eventType: string;
  constructor(row: OutboxRow, cause: unknown) {
    super(`could not publish outbox event ${row.event_id} (${row.type}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "OutboxPublishError";
    this.eventId = row.event_id;
    this.eventType = row.type;
  }
}

/** Size of the envelope as the relay will publish it (time, traceparent and seq at their longest). */
function envelopeBytes(id: string, type: string, customerId: number | null, data: string, traceparent: string | undefined): number {
  const head = JSON.stringify({ id, type, customerId, time: Date.now(), traceparent: traceparent ?? "00-".padEnd(55, "0"), seq: Number.MAX_SAFE_INTEGER });
  return Buffer.byteLength(head) + Buffer.byteLength(data) + ',"data":'.length;
}
