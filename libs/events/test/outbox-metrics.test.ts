// The outbox's backlog as metrics: how many events wait to be published and for how long
// the oldest has waited, observed while the relay runs.
import type { Knex } from "knex";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createInProcessBus, createOutbox, createOutboxTable } from "../src/index.js";
import { observeOutbox } from "../src/outbox/outbox-metrics.js";
import { createTestDatabase, type TestDatabase } from "./helpers/postgres.js";
import { sleep } from "./helpers/wait.js";

class CollectingReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/** The gauges' values by name (and `signage.service`, when set), as a collection now reports them (absent: never observed). */
async function gauges(reader: MetricReader): Promise<Record<string, number>> {
  const { resourceMetrics } = await reader.collect();
  const values: Record<string, number> = {};
  for (const metric of resourceMetrics.scopeMetrics.flatMap((s) => s.metrics)) {
    for (const point of metric.dataPoints) {
      const service = point.attributes["signage.service"];
      values[service === undefined ? metric.descriptor.name : `${metric.descriptor.name}{${String(service)}}`] = point.value as number;
    }
  }
  return values;
}

describe("outbox metrics (PostgreSQL)", () => {
  let db: TestDatabase;
  let knex: Knex;
  beforeAll(async () => {
    db = await createTestDatabase();
    knex = db.knex;
    await createOutboxTable(knex);
  });
  afterAll(() => db?.drop());
  beforeEach(() => knex("event_outbox").delete());

  const row = (id: string, secondsAgo: number) => ({ event_id: id, type: "thing.created", customer_id: 1, data: JSON.stringify({ id }), created_at: knex.raw(`now() - interval '${secondsAgo} seconds'`) });

  it("signage.outbox.pending counts the unpublished events and signage.outbox.oldest_age is the oldest one's wait in seconds", async () => {
    const reader = new CollectingReader();
    const observed = observeOutbox(new MeterProvider({ readers: [reader] }).getMeter("test"), knex, "event_outbox");
    expect(await gauges(reader)).toEqual({ "signage.outbox.pending": 0, "signage.outbox.oldest_age": 0 });

    await knex("event_outbox").insert([row("a", 90), row("b", 5), row("c", 1)]);
    const backlog = await gauges(reader);
    expect(backlog["signage.outbox.pending"]).toBe(3);
    expect(backlog["signage.outbox.oldest_age"]).toBeGreaterThanOrEqual(90);
    expect(backlog["signage.outbox.oldest_age"]).toBeLessThan(120);

    // Removed: the table is no longer read (the SDK keeps exporting the last value it saw).
    observed.remove();
    await knex("event_outbox").insert([row("d", 0)]);
    expect((await gauges(reader))["signage.outbox.pending"]).toBe(3);
  });

  it("the relay observes its table while it runs, labelled with its service, and stops observing when it stops", async () => {
    const reader = new CollectingReader();
    const meter = new MeterProvider({ readers: [reader] }).getMeter("test");
    await knex("event_outbox").insert([row("left-by-a-crash", 30)]);
    const outbox = createOutbox({ knex, bus: createInProcessBus(), meter, pollIntervalMs: 20, service: "media" });
    expect(await gauges(reader)).toEqual({});
    outbox.start();
    for (let tries = 0; Number((await knex("event_outbox").count({ n: "*" }))[0].n) > 0; tries++) {
      if (tries > 500) throw new Error("the relay never published the row");
      await sleep(10);
    }
    // Labelled by service: the embedded composition runs every service's relay in one process.
    expect(await gauges(reader)).toEqual({ "signage.outbox.pending{media}": 0, "signage.outbox.oldest_age{media}": 0 });
    await outbox.stop();
    await knex("event_outbox").insert([row("after-stop", 0)]);
    expect((await gauges(reader))["signage.outbox.pending{media}"]).toBe(0);
  });
});
