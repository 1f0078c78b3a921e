// A subscription outlives its durable consumer (or the stream) being deleted under it:
// it re-creates what is missing with the start-up configuration and resumes, on the real
// NATS server. Each test has its own stream (createJetStreamWorld), deleted afterwards.
import { afterEach, describe, expect, it } from "vitest";
import { AckPolicy, DeliverPolicy, nanos } from "nats";
import type { EventEnvelope, JetStreamBusOptions } from "../src/index.js";
import { recreateConsumer } from "../src/jetstream/consumer.js";
import { NATS_URL } from "./helpers/env.js";
import { createJetStreamWorld, type JetStreamWorld } from "./helpers/jetstream.js";
import { recordingLogger } from "./helpers/logger.js";
import { startTcpProxy, type TcpProxy } from "./helpers/tcp-proxy.js";
import { sleep, waitFor } from "./helpers/wait.js";

// Short pulls (heartbeat every 500 ms), quick back-off and ack-floor reads keep each test to about a second.
const FAST: Partial<JetStreamBusOptions> = {
  ackWaitMs: 2_000,
  pullExpiresMs: 1_000,
  recoveryBackoffMs: { minMs: 50, maxMs: 400 },
  ackFloorRefreshMs: 50,
  streamRecreateDelayMs: 100,
  maxDeliver: 3,
  nakDelayMs: 100,
};

const worlds: JetStreamWorld[] = [];
const proxies: TcpProxy[] = [];
async function world(): Promise<JetStreamWorld> {
  const w = await createJetStreamWorld(FAST);
  worlds.push(w);
  return w;
}

/** Resolves once the consumer exists and `pulls` subscribers have a pull request waiting on it. */
async function consuming(w: JetStreamWorld, durable: string, pulls = 1, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = await w.jsm.consumers.info(w.streamName, durable).catch(() => null);
    if (info && info.num_waiting >= pulls) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pulls} pull(s) on ${durable}`);
    await sleep(20);
  }
}

const errorsOf = (logger: ReturnType<typeof recordingLogger>) => logger.entries.filter((e) => e.level === "error");

describe("jetstream: a subscription heals when its consumer or stream is deleted", () => {
  afterEach(async () => {
    await Promise.all(worlds.splice(0).map((w) => w.dispose()));
    await Promise.all(proxies.splice(0).map((p) => p.close()));
  });

  it("consumer deleted while subscribed: re-created with its start-up configuration, and a new event is handled", async () => {
    const w = await world();
    const logger = recordingLogger();
    const bus = await w.bus({ logger });
    const got: string[] = [];
    await bus.subscribe({ consumer: "svc.heal", types: ["a.*"], handler: async (e) => void got.push(e.data as string) });
    await bus.publish({ type: "a.b", customerId: 1, data: "before" });
    await waitFor(() => got.length === 1, "the event before the deletion");
    // The subscription reads its consumer's ack floor again 50 ms after settling (ackFloorRefreshMs).
    await sleep(200);
    const before = await w.jsm.consumers.info(w.streamName, "svc_heal");

    await w.jsm.consumers.delete(w.streamName, "svc_heal");
    await consuming(w, "svc_heal");
    await bus.publish({ type: "a.c", customerId: 1, data: "after" });
    await waitFor(() => got.length >= 2, "the event after the re-create", 5_000);
    await sleep(200);
    expect(got).toEqual(["before", "after"]);

    const after = await w.jsm.consumers.info(w.streamName, "svc_heal");
    const { deliver_policy, opt_start_seq, ...rest } = after.config;
    const { deliver_policy: _d, opt_start_seq: _o, ...restBefore } = before.config;
    expect(rest).toEqual(restBefore);
    expect(rest).toMatchObject({ ack_policy: "explicit", ack_wait: nanos(2_000), max_deliver: -1, filter_subject: `${w.subjectPrefix}.a.*` });
    // Resumed after the last event the old consumer had settled, not from the start of the stream.
    expect({ deliver_policy, opt_start_seq }).toEqual({ deliver_policy: "by_start_sequence", opt_start_seq: 2 });
    expect(logger.entries.some((e) => e.level === "warn" && e.obj.consumer === "svc.heal" && /re-created it/.test(e.msg ?? ""))).toBe(true);
    expect(errorsOf(logger)).toEqual([]);
  });

  it("events published while the consumer was missing are handled, once, and nothing earlier is replayed", async () => {
    const w = await world();
    const proxy = await startTcpProxy(NATS_URL);
    proxies.push(proxy);
    const logger = recordingLogger();
    const subscriber = await w.bus({ servers: proxy.url, logger, connection: { reconnectTimeWait: 50, reconnectJitter: 0 } });
    const producer = await w.bus();
    const got: string[] = [];
    await subscriber.subscribe({ consumer: "svc", types: ["a.b"], handler: async (e) => void got.push(e.data as string) });
    for (let i = 0; i < 5; i++) await producer.publish({ type: "a.b", customerId: 1, data: `old-${i}` });
    await waitFor(() => got.length === 5, "the earlier events");
    // Acks reach the server, and the subscription reads the ack floor again (50 ms after).
    for (let i = 0; i < 100 && (await w.jsm.consumers.info(w.streamName, "svc")).num_ack_pending > 0; i++) await sleep(20);
    await sleep(300);

    // The subscriber is cut off, so it cannot re-create the consumer at once: events pile up in the stream meanwhile.
    await proxy.cut();
    await w.jsm.consumers.delete(w.streamName, "svc");
    await producer.publish({ type: "a.b", customerId: 1, data: "missing-1" });
    await producer.publish({ type: "a.b", customerId: 1, data: "missing-2" });
    await producer.publish({ type: "a.c", customerId: 1, data: "not-mine" });
    await sleep(300);
    await proxy.restore();

    await waitFor(() => got.length >= 7, "the events published while the consumer was missing", 10_000);
    await producer.publish({ type: "a.b", customerId: 1, data: "after" });
    await waitFor(() => got.length >= 8, "the event after the re-create", 5_000);
    await sleep(300);
    expect(got).toEqual(["old-0", "old-1", "old-2", "old-3", "old-4", "missing-1", "missing-2", "after"]);
    expect(logger.entries.some((e) => e.level === "warn" && e.obj.consumer === "svc" && e.obj.deliverFrom === 6)).toBe(true);
  }, 20_000);

  it("consumer deleted while the subscriber is busy (no pull waiting on the server): held events still run, and come back (at least once)", async () => {
    const w = await world();
    const logger = recordingLogger();
    const bus = await w.bus({ logger });
    const got: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await bus.subscribe({
      consumer: "busy",
      types: ["a.b"],
      handler: async (e) => {
        got.push(e.data as string);
        if (e.data === "slow") await gate;
      },
    });
    await bus.publish({ type: "a.b", customerId: 1, data: "slow" });
    await bus.publish({ type: "a.b", customerId: 1, data: "held" });
    // "slow" runs and "held" waits in the client for the slot: the loop asks for nothing more meanwhile.
    for (let i = 0; i < 100 && (await w.jsm.consumers.info(w.streamName, "busy")).num_ack_pending < 2; i++) await sleep(20);
    expect(got).toEqual(["slow"]);
    await w.jsm.consumers.delete(w.streamName, "busy");
    await bus.publish({ type: "a.b", customerId: 1, data: "while-missing" });
    release();
    await waitFor(() => got.includes("while-missing"), "the event published while the consumer was missing", 5_000);
    await consuming(w, "busy");
    await bus.publish({ type: "a.b", customerId: 1, data: "after" });
    await waitFor(() => got.includes("after"), "the event after the re-create", 5_000);
    await sleep(200);
    // Their acks went to the deleted consumer: the re-created one starts at them again (the inbox dedupes such repeats).
    expect(got).toEqual(["slow", "held", "slow", "held", "while-missing", "after"]);
    // Noticed on the next pull (no responders) or the heartbeat check (consumer not found), not by a "consumer deleted" notice.
    const noticed = logger.entries.find((e) => e.level === "warn" && /unavailable/.test(e.msg ?? ""))?.obj.err as { code?: string } | undefined;
    expect(["503", "404"]).toContain(noticed?.code);
    expect(errorsOf(logger)).toEqual([]);
  });

  it("stream deleted: re-created with its start-up configuration, consumer too, and new events are handled", async () => {
    const w = await world();
    const logger = recordingLogger();
    const bus = await w.bus({ logger, duplicateWindowMs: 30_000, maxAgeMs: 3_600_000 });
    const streamBefore = (await w.jsm.streams.info(w.streamName)).config;
    const got: string[] = [];
    await bus.subscribe({ consumer: "svc", types: ["a.b"], startFrom: "all", handler: async (e) => void got.push(e.data as string) });
    for (let i = 0; i < 3; i++) await bus.publish({ type: "a.b", customerId: 1, data: `old-${i}` });
    await waitFor(() => got.length === 3, "the events before the deletion");

    await w.jsm.streams.delete(w.streamName);
    await consuming(w, "svc");
    const streamAfter = await w.jsm.streams.info(w.streamName);
    expect(streamAfter.config).toMatchObject({
      subjects: streamBefore.subjects,
      storage: streamBefore.storage,
      retention: streamBefore.retention,
      duplicate_window: nanos(30_000),
      max_age: nanos(3_600_000),
    });
    // A new stream starts over at sequence 1: the consumer takes all of it.
    expect((await w.jsm.consumers.info(w.streamName, "svc")).config.deliver_policy).toBe("all");

    await bus.publish({ type: "a.b", customerId: 1, data: "new-1" });
    await bus.publish({ type: "a.b", customerId: 1, data: "new-2" });
    await waitFor(() => got.length === 5, "the events in the new stream", 5_000);
    await sleep(200);
    expect(got).toEqual(["old-0", "old-1", "old-2", "new-1", "new-2"]);
    expect(logger.entries.some((e) => e.level === "warn" && /stream was gone/.test(e.msg ?? ""))).toBe(true);
    expect(errorsOf(logger)).toEqual([]);
  });

  it("a stream an operator deletes and adds again (new settings) is left as they made it; the subscription resumes on it", async () => {
    const w = await world();
    const logger = recordingLogger();
    const bus = await w.bus({ logger });
    const got: string[] = [];
    await bus.subscribe({ consumer: "svc", types: ["a.b"], handler: async (e) => void got.push(e.data as string) });
    await bus.publish({ type: "a.b", customerId: 1, data: "before" });
    await waitFor(() => got.length === 1, "the event before");
    await w.jsm.streams.delete(w.streamName);
    await w.jsm.streams.add({ name: w.streamName, subjects: [`${w.subjectPrefix}.>`], max_age: nanos(60_000) });
    await consuming(w, "svc");
    await bus.publish({ type: "a.b", customerId: 1, data: "after" });
    await waitFor(() => got.length === 2, "the event in the operator's stream", 5_000);
    expect(got).toEqual(["before", "after"]);
    expect((await w.jsm.streams.info(w.streamName)).config.max_age).toBe(nanos(60_000));
    expect(logger.entries.some((e) => /stream was gone/.test(e.msg ?? ""))).toBe(false);
    expect(errorsOf(logger)).toEqual([]);
  });

  it("two subscribers of the same durable (two processes) both resume on the one re-created consumer", async () => {
    const w = await world();
    const logs = [recordingLogger(), recordingLogger()];
    const [a, b] = [await w.bus({ logger: logs[0] }), await w.bus({ logger: logs[1] })];
    const producer = await w.bus();
    const got = { a: [] as string[], b: [] as string[] };
    const handler = (k: keyof typeof got) => async (e: EventEnvelope) => {
      got[k].push(e.id);
      await sleep(20);
    };
    await a.subscribe({ consumer: "shared", types: ["a.b"], handler: handler("a") });
    await b.subscribe({ consumer: "shared", types: ["a.b"], handler: handler("b") });
    await consuming(w, "shared", 2);

    await w.jsm.consumers.delete(w.streamName, "shared");
    await consuming(w, "shared", 2);
    for (let i = 0; i < 20; i++) await producer.publish({ type: "a.b", customerId: 1, data: i });
    await waitFor(() => got.a.length + got.b.length >= 20, "all events", 5_000);
    await sleep(200);
    expect(got.a.length + got.b.length).toBe(20);
    expect(new Set([...got.a, ...got.b]).size).toBe(20);
    expect(got.a.length).toBeGreaterThan(0);
    expect(got.b.length).toBeGreaterThan(0);
    for (const logger of logs) {
      expect(errorsOf(logger)).toEqual([]);
      expect(logger.entries.some((e) => e.level === "warn" && e.obj.consumer === "shared")).toBe(true);
    }
  });

  it("while it cannot re-create (the subjects are taken by another stream), it logs errors and backs off, then heals", async () => {
    const w = await world();
    const proxy = await startTcpProxy(NATS_URL);
    proxies.push(proxy);
    const logger = recordingLogger();
    const bus = await w.bus({ servers: proxy.url, logger, connection: { reconnectTimeWait: 50, reconnectJitter: 0 } });
    const got: string[] = [];
    await bus.subscribe({ consumer: "svc", types: ["a.b"], handler: async (e) => void got.push(e.data as string) });
    const blocker = `${w.streamName}_BLOCKER`;
    try {
      // While the subscriber is cut off, its stream is replaced by one it cannot overlap.
      await proxy.cut();
      await w.jsm.streams.delete(w.streamName);
      await w.jsm.streams.add({ name: blocker, subjects: [`${w.subjectPrefix}.>`] });
      await proxy.restore();
      await waitFor(() => errorsOf(logger).length >= 4, "failed attempts logged", 5_000);
    } finally {
      await w.jsm.streams.delete(blocker).catch(() => undefined);
    }
    const failures = errorsOf(logger);
    expect(failures.every((e) => e.obj.consumer === "svc" && /could not restore/.test(e.msg ?? ""))).toBe(true);
    // Bounded back-off: doubling from 50 ms (with jitter), never above 400 ms.
    const delays = failures.map((e) => e.obj.retryInMs as number);
    expect(Math.max(...delays)).toBeLessThanOrEqual(400);
    expect(delays[0]).toBeLessThan(100);
    expect(delays[3]).toBeGreaterThanOrEqual(300);

    await consuming(w, "svc", 1, 5_000);
    await bus.publish({ type: "a.b", customerId: 1, data: "after" });
    await waitFor(() => got.includes("after"), "the event after healing", 5_000);
  }, 15_000);

  it("re-creating a consumer is idempotent across replicas racing with different start positions", async () => {
    const w = await world();
    const bus = await w.bus();
    for (let i = 0; i < 5; i++) await bus.publish({ type: "a.b", customerId: 1, data: i });
    const settings = { stream: w.streamName, durable: "raced", filter: { filter_subject: `${w.subjectPrefix}.a.b` }, ackWaitMs: 2_000, startFrom: "new" as const };
    const startConfig = {
      durable_name: "raced",
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
      ack_wait: nanos(2_000),
      max_deliver: -1,
      filter_subject: `${w.subjectPrefix}.a.b`,
    };
    const quiet = recordingLogger();
    const outcomes = await Promise.all([
      recreateConsumer(w.jsm, settings, startConfig, 3, quiet),
      recreateConsumer(w.jsm, settings, startConfig, 4, quiet),
      recreateConsumer(w.jsm, settings, startConfig, 4, quiet),
    ]);
    expect(outcomes).toContain("created");
    const info = await w.jsm.consumers.info(w.streamName, "raced");
    expect([3, 4]).toContain(info.config.opt_start_seq);
    // Once it exists, another replica's attempt is success, whatever start it wanted.
    expect(await recreateConsumer(w.jsm, settings, startConfig, info.config.opt_start_seq === 3 ? 4 : 3, quiet)).toBe("exists");
    expect(await recreateConsumer(w.jsm, settings, startConfig, undefined, quiet)).toBe("exists");
  });
});
