import { ValueType, type Attributes, type BatchObservableCallback, type Meter } from "@opentelemetry/api";
import type { Knex } from "knex";

export interface OutboxGauges {
  /** Stops observing (the relay stopped). */
  remove(): void;
}

/**
 * What an on-call engineer asks first when events seem lost: how many are waiting to be
 * published, and for how long the oldest has waited (a bus that is down, an event the bus
 * refuses). Read once per metric export (rows are deleted when published: the table is small);
 * no-ops unless metrics are exported. `attributes` tell the services of one process apart
 * (the embedded composition runs all of them under one resource).
 */
export function observeOutbox(meter: Meter, knex: Knex, table: string, attributes: Attributes = {}): OutboxGauges {
  const pending = meter.createObservableGauge("signage.outbox.pending", {
    description: "Events committed but not yet published to the bus",
    unit: "{event}",
    valueType: ValueType.INT,
  });
  const oldestAge = meter.createObservableGauge("signage.outbox.oldest_age", {
    description: "Seconds the oldest unpublished event has waited (0 when none waits)",
    unit: "s",
    valueType: ValueType.DOUBLE,
  });
  const observe: BatchObservableCallback = async (result) => {
    const row = (await knex(table)
      .first(knex.raw("count(*)::int as pending"), knex.raw("coalesce(extract(epoch from clock_timestamp() - min(created_at)), 0)::float8 as age"))) as { pending: number; age: number };
    result.observe(pending, row.pending, attributes);
    result.observe(oldestAge, Math.max(0, row.age), attributes);
  };
  meter.addBatchObservableCallback(observe, [pending, oldestAge]);
  return { remove: () => meter.removeBatchObservableCallback(observe, [pending, oldestAge]) };
}
