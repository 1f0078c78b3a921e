// The relay's SQL belongs to no request: a kick right after a request's commit must not
// run the relay's queries inside that request's span (they would land in its trace after
// it ended, other requests' rows included). Each event still carries its own request's trace.
import { trace, type Span } from "@opentelemetry/api";
import type { Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInProcessBus, createOutbox, createOutboxTable, type EventEnvelope } from "../src/index.js";
import { installTracing } from "./helpers/otel.js";
import { createTestDatabase, type TestDatabase } from "./helpers/postgres.js";
import { waitFor } from "./helpers/wait.js";

describe("outbox relay trace context", () => {
  let db: TestDatabase;
  let knex: Knex;
  let tracing: ReturnType<typeof installTracing>;

  beforeAll(async () => {
    tracing = installTracing();
    db = await createTestDatabase();
    knex = db.knex;
    await createOutboxTable(knex);
  });
  afterAll(async () => {
    await db?.drop();
    await tracing?.uninstall();
  });

  it("runs the relay's queries with no active span, and publishes in the enqueuing request's trace", async () => {
    // What was active whenever a statement on the outbox table ran.
    const activeAtOutboxQuery: Array<{ sql: string; span: Span | undefined }> = [];
    knex.on("query", (q: { sql: string }) => {
      if (q.sql.includes("event_outbox")) activeAtOutboxQuery.push({ sql: q.sql, span: trace.getActiveSpan() });
    });
    const bus = createInProcessBus();
    const got: EventEnvelope[] = [];
    await bus.subscribe({ consumer: "test", types: ["thing.*"], handler: async (e) => void got.push(e) });
    // No poll during the test: only the kick after the commit relays the row.
    const outbox = createOutbox({ knex, bus, pollIntervalMs: 600_000 });
    outbox.start();
    await waitFor(() => activeAtOutboxQuery.length > 0, "the start-up drain");
    activeAtOutboxQuery.length = 0;

    const request = await tracing.tracer.startActiveSpan("http request", async (span) => {
      await knex.transaction((trx) => outbox.enqueue(trx, { type: "thing.created", customerId: 1, data: {} }));
      span.end();
      return span.spanContext();
    });
    await waitFor(() => got.length === 1, "the relayed event");
    await outbox.stop();
    await bus.close();

    const relayQueries = activeAtOutboxQuery.filter((q) => !q.sql.startsWith("insert"));
    expect(relayQueries.map((q) => q.sql).join("\n")).toMatch(/for update skip locked[\s\S]*delete/i);
    expect(relayQueries.map((q) => q.span?.spanContext().spanId)).toEqual(relayQueries.map(() => undefined));
    // The event itself still belongs to the request that wrote it.
    expect(got[0]!.traceparent).toMatch(new RegExp(`^00-${request.traceId}-`));
  });
});
