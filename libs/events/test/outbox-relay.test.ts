// Outbox relay on-call scenarios with real PostgreSQL and JetStream: a crash
// between commit and publish, a batch that fails halfway (re-publish deduped by
// Nats-Msg-Id), a NATS outage while relaying, and the trace through the relay.
import { trace, type SpanContext } from "@opentelemetry/api";
import type { Knex } from "knex";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOutbox, createOutboxTable, type EventBus, type EventEnvelope, type Outbox } from "../src/index.js";
import { NATS_URL } from "./helpers/env.js";
import { createJetStreamWorld, type JetStreamWorld } from "./helpers/jetstream.js";
import { installTracing } from "./helpers/otel.js";
import { createTestDatabase, type TestDatabase } from "./helpers/postgres.js";
import { startTcpProxy, type TcpProxy } from "./helpers/tcp-proxy.js";
import { sleep, waitFor } from "./helpers/wait.js";

describe("outbox relay (PostgreSQL + JetStream)", () => {
  let db: TestDatabase;
  let knex: Knex;
  let world: JetStreamWorld;
  const outboxes: Outbox[] = [];
  const proxies: TcpProxy[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    knex = db.knex;
    await createOutboxTable(knex);
  });
  afterAll(() => db?.drop());
  beforeEach(async () => {
    world = await createJetStreamWorld({ nakDelayMs: 50 });
    await knex("event_outbox").delete();
  });
  afterEach(async () => {
    await Promise.all(outboxes.splice(0).map((o) => o.stop()));
    await world.dispose();
    await Promise.all(proxies.splice(0).map((p) => p.close()));
  });

  const outbox = (bus: EventBus, pollIntervalMs = 50) => {
    const o = createOutbox({ knex, bus, pollIntervalMs });
    outboxes.push(o);
    return o;
  };
  const pending = async () => Number((await knex("event_outbox").count({ n: "*" }).first())?.n);

  async function recorder(bus: EventBus) {
    const got: EventEnvelope[] = [];
    await bus.subscribe({ consumer: "recorder", types: ["thing.*"], startFrom: "all", handler: async (e) => void got.push(e) });
    return got;
  }

  // Consumers that keep state tell a redelivered older event from a newer one by the producer's
  // outbox sequence: the relay puts it on every envelope, increasing in enqueue order.
  it("every relayed envelope carries the producer's outbox seq, increasing in enqueue order", async () => {
    const bus = await world.bus();
    const got = await recorder(bus);
    const relay = outbox(bus);
    for (let i = 0; i < 3; i++) await knex.transaction((trx) => relay.enqueue(trx, { type: "thing.created", customerId: 1, data: { i } }));
    relay.start();
    await waitFor(() => got.length === 3, "three relayed events");
    const bySeq = [...got].sort((x, y) => x.seq! - y.seq!).map((e) => (e.data as { i: number }).i);
    expect(got.every((e) => Number.isSafeInteger(e.seq) && e.seq! > 0)).toBe(true);
    expect(bySeq).toEqual([0, 1, 2]);
  });

  it("an idle relay polls with one plain read (no transaction, no lock); a row written without enqueue (a trigger's) is still relayed by the poll", async () => {
    const bus = await world.bus();
    const got = await recorder(bus);
    const relay = outbox(bus, 20);
    relay.start();
    await sleep(100); // the start's own flush is done
    const seen: string[] = [];
    const listener = (q: { sql: string }) => void seen.push(q.sql);
    knex.on("query", listener);
    await sleep(300);
    knex.off("query", listener);
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.every((sql) => /^select 1 as pending from "event_outbox" limit \$1$/.test(sql)), seen.join("\n")).toBe(true);
    await knex("event_outbox").insert({ event_id: "00000000-0000-4000-8000-00000000abcd", type: "thing.created", customer_id: 1, data: JSON.stringify("by trigger") });
    await waitFor(() => got.length === 1, "the trigger's event");
    expect(got[0].id).toBe("00000000-0000-4000-8000-00000000abcd");
    for (let i = 0; i < 100 && (await pending()) > 0; i++) await sleep(20);
    expect(await pending()).toBe(0);
  });

  it("a crash between commit and publish: the next relay (new process) publishes the committed events", async () => {
    const bus = await world.bus();
    const got = await recorder(bus);
    const crashed = createOutbox({ knex, bus, pollIntervalMs: 60_000 }); // never relays: the process died after commit
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await knex.transaction((trx) => crashed.enqueue(trx, { type: "thing.created", customerId: 1, data: { i } })));
    await sleep(200);
    expect(got).toHaveLength(0);
    expect(await pending()).toBe(3);
    outbox(await world.bus()).start(); // the restarted service
    await waitFor(() => got.length === 3, "three events");
    await sleep(200);
    expect(got.map((e) => e.id)).toEqual(ids);
    expect(await pending()).toBe(0);
  });

  it("a batch that fails halfway is retried; the re-published head is deduplicated by Nats-Msg-Id", async () => {
    const bus = await world.bus();
    const got = await recorder(bus);
    let calls = 0;
    // Publishes the first event, then the bus fails once: the relay's transaction rolls back and keeps both rows.
    const flaky: EventBus = { ...bus, publish: (e) => (++calls === 2 ? Promise.reject(new Error("nats timeout")) : bus.publish(e)) };
    const relay = outbox(flaky, 60_000);
    const a = await knex.transaction((trx) => relay.enqueue(trx, { type: "thing.created", customerId: 1, data: "a" }));
    const b = await knex.transaction((trx) => relay.enqueue(trx, { type: "thing.created", customerId: 1, data: "b" }));
    // The failure names the event that holds the relay up.
    await expect(relay.flush()).rejects.toThrow(new RegExp(`${b}.*nats timeout`));
    expect(await pending()).toBe(2);
    expect(await relay.flush()).toBe(2);
    expect(calls).toBe(4); // a, (b failed), a again, b
    await waitFor(() => got.length >= 2, "both events");
    await sleep(300);
    expect(got.map((e) => e.id)).toEqual([a, b]);
    expect((await world.jsm.streams.info(world.streamName)).state.messages).toBe(2);
  });

  it("two relays (replicas) on one table publish a backlog in order, each event once", async () => {
    const fast = await world.bus();
    const got = await recorder(fast);
    // Replica A's publishes are slower (network latency): without turn-taking, B overtakes it.
    const slow: EventBus = { ...fast, publish: async (e) => { await sleep(30); return fast.publish(e); } };
    const writer = createOutbox({ knex, bus: fast, pollIntervalMs: 60_000 });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await knex.transaction((trx) => writer.enqueue(trx, { type: "thing.created", customerId: 1, data: { i } })));
    // Backlog (e.g. after an outage), relayed one row per transaction by both replicas at once.
    const relayA = createOutbox({ knex, bus: slow, pollIntervalMs: 20, batchSize: 1 });
    const relayB = createOutbox({ knex, bus: fast, pollIntervalMs: 20, batchSize: 1 });
    outboxes.push(relayA, relayB);
    relayA.start();
    relayB.start();
    await waitFor(() => got.length >= 12, "twelve events", 15_000);
    await sleep(300);
    expect(got.map((e) => e.id)).toEqual(ids);
  });

  it("an event too big for the bus is refused in the writer's transaction instead of blocking the relay", async () => {
    const bus = await world.bus();
    const got = await recorder(bus);
    const relay = outbox(bus);
    relay.start();
    const big = knex.transaction(async (trx) => {
      await relay.enqueue(trx, { type: "thing.created", customerId: 1, data: { blob: "x".repeat(1_100_000) } });
    });
    await expect(big).rejects.toThrow(/over the bus limit/);
    expect(await pending()).toBe(0);
    const id = await knex.transaction((trx) => relay.enqueue(trx, { type: "thing.created", customerId: 1, data: { small: true } }));
    await waitFor(() => got.length === 1, "the next event");
    expect(got[0].id).toBe(id);
    // The limit is the serialized envelope: an event just under it is published fine.
    const nearLimit = await knex.transaction((trx) => relay.enqueue(trx, { type: "thing.created", customerId: 1, data: "y".repeat(1_000_000) }));
    await waitFor(() => got.length === 2, "a large event under the limit", 10_000);
    expect(got[1].id).toBe(nearLimit);
  });

  it("a NATS outage while relaying: publishes fail or wait, rows stay, everything arrives once after reconnect", async () => {
    const proxy = await startTcpProxy(NATS_URL);
    proxies.push(proxy);
    const relayBus = await world.bus({ servers: proxy.url, connection: { reconnectTimeWait: 100, reconnectJitter: 0 } });
    const got = await recorder(await world.bus());
    const relay = outbox(relayBus, 100);
    relay.start();
    await proxy.cut();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await knex.transaction((trx) => relay.enqueue(trx, { type: "thing.created", customerId: 1, data: { i } })));
    await sleep(1_500);
    expect(got).toHaveLength(0);
    expect(await pending()).toBeGreaterThan(0);
    await proxy.restore();
    await waitFor(() => got.length >= 5, "all five events after the outage", 20_000);
    for (let i = 0; i < 50 && (await pending()) > 0; i++) await sleep(100);
    await sleep(300);
    expect(got.map((e) => e.id)).toEqual(ids);
    expect(await pending()).toBe(0);
  }, 30_000);

  describe("tracing", () => {
    let tracing: ReturnType<typeof installTracing>;
    beforeAll(() => {
      tracing = installTracing();
    });
    afterAll(() => tracing.uninstall());

    it("the handler's span continues the trace of the request that enqueued the event", async () => {
      const bus = await world.bus();
      let handlerSpan: SpanContext | undefined;
      let received: EventEnvelope | undefined;
      await bus.subscribe({
        consumer: "traced",
        types: ["thing.created"],
        handler: async (e) => {
          received = e;
          handlerSpan = trace.getActiveSpan()?.spanContext();
        },
      });
      const relay = outbox(bus);
      relay.start();
      const root = await tracing.tracer.startActiveSpan("http request", async (span) => {
        await knex.transaction((trx) => relay.enqueue(trx, { type: "thing.created", customerId: 1, data: {} }));
        span.end();
        return span.spanContext();
      });
      await waitFor(() => handlerSpan !== undefined, "traced delivery");
      expect(handlerSpan!.traceId).toBe(root.traceId);
      expect(received!.traceparent).toMatch(new RegExp(`^00-${root.traceId}-`));
    });
  });
});
