// A subscription outlives its durable consumer (or the stream) being deleted under it:
// it re-creates what is missing with the start-up configuration and resumes, on the real
// NATS server. Each test has its own stream (createJetStreamWorld), deleted afterwards.
import { afterEach, describe, expect, it } from "vitest";
import { AckPolicy, DeliverPolicy, nanos, type Consumer, type ConsumerInfo, type JetStreamManager } from "nats";
import type { EventEnvelope, JetStreamBusOptions } from "../src/index.js";
import { recreateConsumer, supportsFilterUpdate, type ConsumerSettings } from "../src/jetstream/consumer.js";
import { keepConsumer, type ConsumerKeeperOptions } from "../src/jetstream/heal.js";
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

// What a subscription of types ["a.b"] on durable "svc" would ask for (see bus.ts).
function svcSettings(w: JetStreamWorld): ConsumerSettings {
  return { stream: w.streamName, durable: "svc", filter: { filter_subject: `${w.subjectPrefix}.a.b` }, ackWaitMs: 2_000, startFrom: "new", subjectPrefix: w.subjectPrefix, multiFilter: false, filterUpdates: supportsFilterUpdate(w.nc.info?.version) };
}

/** Adds durable "svc" as such a subscription would (start "new") and reads it back, as subscribe() does. */
async function addSvcConsumer(w: JetStreamWorld): Promise<ConsumerInfo> {
  await w.jsm.consumers.add(w.streamName, {
    durable_name: "svc",
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.New,
    ack_wait: nanos(2_000),
    max_deliver: -1,
    filter_subject: `${w.subjectPrefix}.a.b`,
  });
  return w.jsm.consumers.info(w.streamName, "svc");
}

/** The keeper a subscription on "svc" would have (see bus.ts), for driving restore() directly. */
async function svcKeeper(w: JetStreamWorld, startInfo: ConsumerInfo, over: Partial<ConsumerKeeperOptions> = {}) {
  return keepConsumer({
    jsm: w.jsm,
    js: w.nc.jetstream(),
    stream: { name: w.streamName, subjectPrefix: w.subjectPrefix, duplicateWindowMs: 120_000, maxAgeMs: 7 * 86_400_000 },
    consumer: svcSettings(w),
    label: "svc",
    startInfo,
    streamCreated: (await w.jsm.streams.info(w.streamName)).created,
    refreshMs: 50,
    pollMs: 60_000,
    streamRecreateDelayMs: 100,
    consumerRecreateDelayMs: 0,
    logger: recordingLogger(),
    ...over,
  });
}

/** Takes (and acks) what the consumer delivers within a second (or its first `count` events): the data of each event. */
async function take(source: Consumer, count = 100): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const m of await source.fetch({ max_messages: count, expires: 1_000 })) {
    out.push((JSON.parse(m.string()) as EventEnvelope).data);
    m.ack();
  }
  return out;
}

/** `jsm` whose stream info reports `created` whatever the stream: a stream restored from a backup may keep its `created`. */
function reportingCreated(jsm: JetStreamManager, created: string): JetStreamManager {
  const streams = Object.create(jsm.streams) as JetStreamManager["streams"];
  streams.info = async (...args) => ({ ...(await jsm.streams.info(...args)), created });
  const wrapped = Object.create(jsm) as JetStreamManager;
  Object.defineProperty(wrapped, "streams", { value: streams });
  return wrapped;
}

/** `jsm` that counts consumer info requests. */
function countingConsumerInfo(jsm: JetStreamManager): { jsm: JetStreamManager; calls: () => number } {
  let n = 0;
  const consumers = Object.create(jsm.consumers) as JetStreamManager["consumers"];
  consumers.info = (...args) => {
    n++;
    return jsm.consumers.info(...args);
  };
  const wrapped = Object.create(jsm) as JetStreamManager;
  Object.defineProperty(wrapped, "consumers", { value: consumers });
  return { jsm: wrapped, calls: () => n };
}

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

  // E1: the default delay (5 s) leaves an operator's scripted delete and re-add room; this one takes longer than the old 1 s.
  it("by default a deleted stream is left alone for seconds: an operator who re-adds it (new settings) 1.3 s later wins, and consuming resumes on it at once", async () => {
    const w = await world();
    const logger = recordingLogger();
    const bus = await w.bus({ logger, streamRecreateDelayMs: undefined });
    const got: unknown[] = [];
    await bus.subscribe({ consumer: "svc", types: ["a.b"], handler: async (e) => void got.push(e.data) });
    await w.jsm.streams.delete(w.streamName);
    await sleep(1_300);
    await w.jsm.streams.add({ name: w.streamName, subjects: [`${w.subjectPrefix}.>`], max_age: nanos(60_000) });
    const readded = Date.now();
    await consuming(w, "svc", 1, 5_000);
    // Found within a look (every 250 ms), not after the whole delay (3.7 s after the re-add).
    expect(Date.now() - readded).toBeLessThan(2_500);
    await bus.publish({ type: "a.b", customerId: 1, data: "after" });
    await waitFor(() => got.includes("after"), "the event in the operator's stream", 5_000);
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
    const settings = { stream: w.streamName, durable: "raced", filter: { filter_subject: `${w.subjectPrefix}.a.b` }, ackWaitMs: 2_000, startFrom: "new" as const, subjectPrefix: w.subjectPrefix, multiFilter: false, filterUpdates: supportsFilterUpdate(w.nc.info?.version) };
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

  // E5: the safety claim behind starting a re-created consumer at the server's ack floor.
  it.each(["in flight in a slow handler", "waiting out a retry back-off"] as const)(
    "an event another replica holds (%s) when the consumer is deleted is handled after THIS replica re-creates it",
    async (how) => {
      const w = await world();
      const proxy = await startTcpProxy(NATS_URL);
      proxies.push(proxy);
      // A is behind a proxy, so that B (and only B) re-creates the consumer; A retries an event a minute later.
      const a = await w.bus({ servers: proxy.url, nakDelayMs: 60_000, connection: { reconnectTimeWait: 50, reconnectJitter: 0 } });
      const logB = recordingLogger();
      const b = await w.bus({ logger: logB });
      const byA: unknown[] = [];
      const byB: unknown[] = [];
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      try {
        await a.subscribe({
          consumer: "shared",
          types: ["a.b"],
          handler: async (e) => {
            byA.push(e.data);
            if (e.data !== "held") return;
            if (how === "waiting out a retry back-off") throw new Error("not yet");
            await gate;
          },
        });
        await b.publish({ type: "a.b", customerId: 1, data: "first" });
        await waitFor(() => byA.includes("first"), "A handling the first event");
        await b.publish({ type: "a.b", customerId: 1, data: "held" });
        await waitFor(() => byA.includes("held"), "A taking the held event (seq 2)");
        await b.subscribe({ consumer: "shared", types: ["a.b"], handler: async (e) => void byB.push(e.data) });
        // Events above the held one are settled (by B, or by A when it is free; A holds at most one more, waiting for its slot).
        const later = ["later-0", "later-1", "later-2", "later-3"];
        for (const data of later) await b.publish({ type: "a.b", customerId: 1, data });
        await waitFor(() => later.filter((d) => byA.includes(d) || byB.includes(d)).length >= 3, "later events handled", 5_000);
        await sleep(200);
        const before = await w.jsm.consumers.info(w.streamName, "shared");
        expect(before.ack_floor.stream_seq).toBe(1);
        expect(byB).not.toContain("held");

        await proxy.cut();
        await w.jsm.consumers.delete(w.streamName, "shared");
        await waitFor(() => byB.includes("held"), "the held event handled again, by B", 5_000);
        expect(logB.entries.some((e) => e.level === "warn" && e.obj.consumer === "shared" && e.obj.deliverFrom === 2 && /re-created it/.test(e.msg ?? ""))).toBe(true);
        expect(errorsOf(logB)).toEqual([]);
      } finally {
        release();
        await proxy.restore();
      }
    },
    15_000,
  );

  // E2
  it.each([
    ["its last sequence is below the ack floor", 2],
    ["it has grown past the ack floor again", 6],
  ])(
    "a stream restored from a backup (same `created`, sequences gone back) is a new stream when %s: events published after the restore are not skipped",
    async (_, published) => {
      const w = await world();
      const bus = await w.bus();
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push((await bus.publish({ type: "a.b", customerId: 1, data: `old-${i}` })).id);
      // Everything up to sequence 6 is settled: the consumer's ack floor is 6.
      const startInfo = await addSvcConsumer(w);
      const stream = await w.jsm.streams.info(w.streamName);
      const logger = recordingLogger();
      const keeper = await svcKeeper(w, startInfo, { jsm: reportingCreated(w.jsm, stream.created), streamCreated: stream.created, logger });
      try {
        // The restore: the stream as a backup taken after two events holds it, then events published since.
        await w.jsm.streams.delete(w.streamName);
        await sleep(100);
        await w.jsm.streams.add(stream.config);
        for (let i = 0; i < 2; i++) await bus.publish({ id: ids[i], type: "a.b", customerId: 1, data: `old-${i}` });
        const fresh = Array.from({ length: published }, (_, i) => `new-${i}`);
        for (const data of fresh) await bus.publish({ type: "a.b", customerId: 1, data });

        const got = await take(await keeper.restore(new AbortController().signal));
        expect(got).toEqual(["old-0", "old-1", ...fresh]);
        expect((await w.jsm.consumers.info(w.streamName, "svc")).config.deliver_policy).toBe("all");
        expect(logger.entries.some((e) => e.level === "warn" && /another history/.test(e.msg ?? ""))).toBe(true);
      } finally {
        keeper.close();
      }
    },
  );

  // E4
  it("a replica that receives nothing reads the ack floor every ackFloorPollMs: it re-creates the consumer after what others settled, not from the start", async () => {
    const w = await world();
    const bus = await w.bus();
    // Subscribed on an empty stream: the floor it read then is 0.
    const startInfo = await addSvcConsumer(w);
    expect(startInfo.delivered.stream_seq).toBe(0);
    const counted = countingConsumerInfo(w.jsm);
    const keeper = await svcKeeper(w, startInfo, { jsm: counted.jsm, pollMs: 100 });
    try {
      // Another replica handles twenty events; this one gets none of them.
      for (let i = 0; i < 20; i++) await bus.publish({ type: "a.b", customerId: 1, data: i });
      expect(await take(await w.nc.jetstream().consumers.get(w.streamName, "svc"), 20)).toHaveLength(20);
      for (let i = 0; i < 100 && (await w.jsm.consumers.info(w.streamName, "svc")).ack_floor.stream_seq < 20; i++) await sleep(20);
      await sleep(300);

      await w.jsm.consumers.delete(w.streamName, "svc");
      const source = await keeper.restore(new AbortController().signal);
      await bus.publish({ type: "a.b", customerId: 1, data: "after" });
      // Not the twenty again (`all`, a replay of the whole retention in production).
      expect(await take(source)).toEqual(["after"]);
      expect((await w.jsm.consumers.info(w.streamName, "svc")).config).toMatchObject({ deliver_policy: "by_start_sequence", opt_start_seq: 21 });
    } finally {
      keeper.close();
    }
    // The poll stops with the subscription.
    const calls = counted.calls();
    await sleep(300);
    expect(counted.calls()).toBe(calls);
  });

  // E3
  it.each([
    ["the new version re-creates it, then an old replica resumes on it", { old: 1_000, new: 100 }],
    ["an old replica re-creates it, then the new version resumes on it", { old: 100, new: 1_000 }],
  ])(
    "mid-deploy, replicas of two versions (types a.b, then a.*) share a durable and the stream is deleted; %s: resuming never narrows it, the new types are delivered",
    async (_, delays) => {
      const w = await world();
      const logs = { old: recordingLogger(), new: recordingLogger() };
      const oldBus = await w.bus({ logger: logs.old, streamRecreateDelayMs: delays.old });
      const newBus = await w.bus({ logger: logs.new, streamRecreateDelayMs: delays.new });
      const got: unknown[] = [];
      await oldBus.subscribe({ consumer: "svc", types: ["a.b"], handler: async () => undefined });
      await newBus.subscribe({ consumer: "svc", types: ["a.*"], handler: async (e) => void got.push(e.data) });
      const filter = async () => (await w.jsm.consumers.info(w.streamName, "svc")).config.filter_subject;
      // At start-up the last subscribe wins.
      expect(await filter()).toBe(`${w.subjectPrefix}.a.*`);

      await w.jsm.streams.delete(w.streamName);
      const later = delays.old > delays.new ? logs.old : logs.new;
      await waitFor(() => later.entries.some((e) => /consumer exists/.test(e.msg ?? "")), "the later replica resuming on the consumer", 5_000);
      expect(await filter()).toBe(`${w.subjectPrefix}.a.*`);

      // The rollout ends: only the new version is left.
      await oldBus.close();
      await newBus.publish({ type: "a.c", customerId: 1, data: "new-type" });
      await newBus.publish({ type: "a.b", customerId: 1, data: "old-type" });
      await waitFor(() => got.length >= 2, "both events, at the new version", 5_000);
      expect(got).toEqual(["new-type", "old-type"]);
      expect(errorsOf(logs.new)).toEqual([]);
      expect(errorsOf(logs.old)).toEqual([]);
    },
  );

  it("resuming widens a consumer that does not take all of a subscription's types, and never narrows one that takes more", async () => {
    const w = await world();
    await w.bus();
    const startInfo = await addSvcConsumer(w);
    const keeper = await svcKeeper(w, startInfo);
    try {
      const signal = new AbortController().signal;
      const set = (filter_subject: string) => w.jsm.consumers.update(w.streamName, "svc", { filter_subject });
      const filter = async () => (await w.jsm.consumers.info(w.streamName, "svc")).config.filter_subject;
      await set(`${w.subjectPrefix}.a.*`);
      await keeper.restore(signal);
      expect(await filter()).toBe(`${w.subjectPrefix}.a.*`);
      await set(`${w.subjectPrefix}.x.y`);
      await keeper.restore(signal);
      // One filter subject only before nats-server 2.10: the union is the whole prefix (the client filters).
      expect(await filter()).toBe(`${w.subjectPrefix}.>`);
      await w.jsm.consumers.update(w.streamName, "svc", { ack_wait: nanos(1_000) });
      await keeper.restore(signal);
      expect((await w.jsm.consumers.info(w.streamName, "svc")).config.ack_wait).toBe(nanos(2_000));
    } finally {
      keeper.close();
    }
  });
});
