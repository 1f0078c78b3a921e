import { ValueType, type Attributes, type BatchObservableCallback, type Meter } from "@opentelemetry/api";
import type { Knex } from "knex";

/** Counted up to this many: beyond it the figure says "at least". */
export const PENDING_CAP = 1_000_000;
const QUERY_TIMEOUT_MS = 5_000;

export interface OutboxGauges {
  /** Stops observing (the relay stopped). */
  remove(): void;
}

/**
 * What an on-call engineer asks first when events seem lost: how many are waiting to be
 * published, and for how long the oldest has waited (a bus that is down, an event the bus
 * refuses). Read once per metric export (rows are deleted when published: the table is small);
 * no-ops unless metrics are exported. Every replica of a service reports the same table: take the
 * max across replicas, not the sum. `attributes` tell the services of one process apart
 * (the embedded composition runs all of them under one resource).
 */
export function observeOutbox(meter: Meter, knex: Knex, table: string, attributes: Attributes = {}): OutboxGauges {
  const pending = meter.createObservableGauge("signage.outbox.pending", {
    description: `Events committed but not yet published to the bus (counted up to ${PENDING_CAP})`,
    unit: "{event}",
    valueType: ValueType.INT,
  });
  const oldestAge = meter.createObservableGauge("signage.outbox.oldest_age", {
    description: "Seconds the oldest unpublished event has waited (0 when none waits)",
    unit: "s",
    valueType: ValueType.DOUBLE,
  });
  const observe: BatchObservableCallback = async (result) => {
    // The oldest row by the primary key, the count capped: cheap however large the backlog grew
    // (it grows exactly when the bus is down), and a stuck database holds up no metric export.
    const { rows } = (await knex
      .raw(
        `select (select count(*) from (select 1 from ?? limit ${PENDING_CAP}) capped)::int as pending,
                coalesce(extract(epoch from clock_timestamp() - (select created_at from ?? order by seq limit 1)), 0)::float8 as age`,
        [table, table],
      )
      .timeout(QUERY_TIMEOUT_MS, { cancel: true })) as { rows: { pending: number; age: number }[] };
    result.observe(pending, rows[0].pending, attributes);
    result.observe(oldestAge, Math.max(0, rows[0].age), attributes);
  };
  meter.addBatchObservableCallback(observe, [pending, oldestAge]);
  return { remove: () => meter.removeBatchObservableCallback(observe, [pending, oldestAge]) };
}
