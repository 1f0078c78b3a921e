// On-call scenarios for the JetStream adapter on a real server: slow handlers,
// poison events, restarts and connection loss. Each test uses its own stream
// (createJetStreamWorld) and, for outages, a private TCP proxy in front of the
// shared NATS server, which is never stopped.
import { afterEach, describe, expect, it } from "vitest";
import type { DeadLetterData, EventEnvelope } from "../src/index.js";
import { NATS_URL } from "./helpers/env.js";
import { createJetStreamWorld, type JetStreamWorld } from "./helpers/jetstream.js";
import { recordingLogger } from "./helpers/logger.js";
import { startTcpProxy, type TcpProxy } from "./helpers/tcp-proxy.js";
import { sleep, waitFor } from "./helpers/wait.js";

const worlds: JetStreamWorld[] = [];
const proxies: TcpProxy[] = [];
async function world(ackWaitMs = 5_000): Promise<JetStreamWorld> {
  const w = await createJetStreamWorld({ ackWaitMs, maxDeliver: 3, nakDelayMs: 100 });
  worlds.push(w);
  return w;
}

describe("jetstream resilience", () => {
  afterEach(async () => {
    await Promise.all(worlds.splice(0).map((w) => w.dispose()));
    await Promise.all(proxies.splice(0).map((p) => p.close()));
  });

  it("a message waiting behind a slow handler is not redelivered (no duplicate processing)", async () => {
    // Each handler run is well under the ack wait, but the next message arrives
    // while the previous one runs and waits in the client for a free slot.
    const w = await world(1_500);
    const bus = await w.bus();
    for (let i = 0; i < 6; i++) await bus.publish({ type: "a.b", customerId: 1, data: i });
    const runs: number[] = [];
    await bus.subscribe({ consumer: "slow", types: ["a.b"], startFrom: "all", handler: async (e) => { runs.push(e.data as number); await sleep(800); } });
    await waitFor(() => runs.length >= 6, "six runs", 15_000);
    await sleep(1_000);
    expect(runs).toEqual([0, 1, 2, 3, 4, 5]);
    const info = await w.jsm.consumers.info(w.streamName, "slow");
    expect(info.num_redelivered).toBe(0);
    expect(info.num_ack_pending).toBe(0);
  }, 30_000);

  // Subscribers sharing a consumer split the work: one busy subscriber must not pull a backlog it
  // cannot run (held in memory, out of reach of idle replicas). It holds at most one ahead.
  it("a busy subscriber holds at most its concurrency plus one message; the rest stay with the server", async () => {
    const w = await world(5_000);
    const bus = await w.bus();
    for (let i = 0; i < 20; i++) await bus.publish({ type: "a.b", customerId: 1, data: i });
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await bus.subscribe({ consumer: "backlog", types: ["a.b"], startFrom: "all", handler: async () => { runs++; await gate; } });
    try {
      await waitFor(() => runs === 1, "first run");
      await sleep(500);
      const info = await w.jsm.consumers.info(w.streamName, "backlog");
      expect(info.num_ack_pending).toBeLessThanOrEqual(2);
      expect(info.num_pending).toBeGreaterThanOrEqual(18);
    } finally {
      // Also on failure: closing the bus waits for the handlers, and the stream must be disposed.
      release();
    }
    await waitFor(() => runs === 20, "all runs", 15_000);
  }, 30_000);

  it("a handler slower than the ack wait runs once (kept alive), not once per ack wait", async () => {
    const w = await world(1_000);
    const bus = await w.bus();
    let runs = 0;
    let done = 0;
    await bus.subscribe({ consumer: "very-slow", types: ["a.b"], handler: async () => { runs++; await sleep(3_000); done++; } });
    await bus.publish({ type: "a.b", customerId: 1, data: {} });
    await waitFor(() => done === 1, "handler end", 10_000);
    await sleep(1_500);
    expect(runs).toBe(1);
    expect((await w.jsm.consumers.info(w.streamName, "very-slow")).num_redelivered).toBe(0);
  }, 20_000);

  it("a poison event is backed off, parked as a dead letter with an error naming it, and never blocks the events behind it", async () => {
    const w = await world(1_000);
    const logger = recordingLogger();
    const bus = await w.bus({ logger, maxDeliver: 3, nakDelayMs: (n) => 300 * n });
    const handled: number[] = [];
    const attemptsAt: number[] = [];
    const dead: EventEnvelope<DeadLetterData>[] = [];
    await bus.subscribe<DeadLetterData>({ consumer: "dlq", types: ["deadletter.>"], handler: async (e) => void dead.push(e) });
    await bus.subscribe<{ n: number; poison?: boolean }>({
      consumer: "svc",
      types: ["job.run"],
      handler: async (e) => {
        if (e.data.poison) {
          attemptsAt.push(Date.now());
          throw new Error("cannot process");
        }
        handled.push(e.data.n);
      },
    });
    const poison = await bus.publish({ type: "job.run", customerId: 1, data: { n: 0, poison: true } });
    for (let n = 1; n <= 5; n++) await bus.publish({ type: "job.run", customerId: 1, data: { n } });
    // Everything behind the poison event is handled while it is still being retried.
    await waitFor(() => handled.length === 5, "events behind the poison one", 2_000);
    expect(dead).toHaveLength(0);
    await waitFor(() => dead.length === 1, "dead letter", 10_000);
    // Parked for good: nothing comes back after the ack wait (1 s) has passed twice.
    await sleep(2_500);
    expect(handled).toEqual([1, 2, 3, 4, 5]);
    expect(attemptsAt).toHaveLength(3);
    // Backed off (300 ms, then 600 ms), not hot-looping.
    expect(attemptsAt[1] - attemptsAt[0]).toBeGreaterThanOrEqual(250);
    expect(attemptsAt[2] - attemptsAt[1]).toBeGreaterThanOrEqual(500);
    expect(dead[0].data).toMatchObject({ consumer: "svc", attempts: 3, error: "cannot process", event: { id: poison.id } });
    const errors = logger.entries.filter((e) => e.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0].obj).toMatchObject({ eventId: poison.id, consumer: "svc", attempts: 3 });
    const info = await w.jsm.consumers.info(w.streamName, "svc");
    expect(info.num_ack_pending).toBe(0);
    expect(info.num_pending).toBe(0);
  }, 20_000);

  it("a restarted service's durable consumer resumes where it left off and gets what was published while it was down", async () => {
    const w = await world();
    const producer = await w.bus();
    const got: string[] = [];
    const handler = async (e: EventEnvelope) => void got.push(e.data as string);
    const before = await w.bus();
    await before.subscribe({ consumer: "svc.things", types: ["thing.*"], startFrom: "all", handler });
    await producer.publish({ type: "thing.created", customerId: 1, data: "before" });
    await waitFor(() => got.length === 1, "first event");
    await before.close(); // service down

    await producer.publish({ type: "thing.created", customerId: 1, data: "while-down-1" });
    await producer.publish({ type: "thing.updated", customerId: 1, data: "while-down-2" });

    const after = await w.bus(); // service up again: a new process, same consumer name
    await after.subscribe({ consumer: "svc.things", types: ["thing.*"], startFrom: "all", handler });
    await waitFor(() => got.length === 3, "events published while down");
    // The default startFrom ("new") only applies to a consumer that does not exist yet.
    const third = await w.bus();
    const viaDefault: string[] = [];
    await after.close();
    await producer.publish({ type: "thing.deleted", customerId: 1, data: "while-down-3" });
    await third.subscribe({ consumer: "svc.things", types: ["thing.*"], handler: async (e) => void viaDefault.push(e.data as string) });
    await waitFor(() => viaDefault.length === 1, "event published while down (default startFrom)");
    await sleep(200);
    expect(got).toEqual(["before", "while-down-1", "while-down-2"]);
    expect(viaDefault).toEqual(["while-down-3"]);
  }, 15_000);

  it("survives a NATS outage longer than the client's default reconnect attempts: reconnects, resumes consuming, loses nothing", async () => {
    const w = await world();
    const proxy = await startTcpProxy(NATS_URL);
    proxies.push(proxy);
    const logger = recordingLogger();
    // A fast reconnect cadence stands in for the default 2 s x 10 attempts: the outage outlasts it.
    const consumer = await w.bus({ servers: proxy.url, logger, connection: { reconnectTimeWait: 50, reconnectJitter: 0 } });
    const producer = await w.bus();
    const got: string[] = [];
    await consumer.subscribe({ consumer: "svc", types: ["a.*"], startFrom: "all", handler: async (e) => void got.push(e.data as string) });
    await producer.publish({ type: "a.b", customerId: 1, data: "before" });
    await waitFor(() => got.includes("before"), "delivery before the outage");
    // Let its ack reach the server first: an ack lost in the cut is redelivered (at least once), which is not what this test is about.
    for (let i = 0; i < 100 && (await w.jsm.consumers.info(w.streamName, "svc")).num_ack_pending > 0; i++) await sleep(20);

    await proxy.cut();
    await producer.publish({ type: "a.b", customerId: 1, data: "during" });
    // Publishing from the cut-off process: buffered until reconnect, or a loud failure; never a silent drop.
    const duringOutage = consumer.publish({ id: "from-cut-off", type: "a.c", customerId: 1, data: "from-cut-off" }).then(
      () => "resolved" as const,
      () => "rejected" as const,
    );
    await sleep(2_000);
    await proxy.restore();

    await waitFor(() => got.includes("during"), "delivery of the event published during the outage", 15_000);
    await producer.publish({ type: "a.b", customerId: 1, data: "after" });
    await waitFor(() => got.includes("after"), "delivery after the outage", 10_000);
    const outcome = await duringOutage;
    if (outcome === "resolved") await waitFor(() => got.includes("from-cut-off"), "the publish that resolved");
    await sleep(300);
    expect(got.filter((d) => d !== "from-cut-off")).toEqual(["before", "during", "after"]);
    expect(got.filter((d) => d === "from-cut-off").length).toBe(outcome === "resolved" ? 1 : 0);
    expect(logger.entries.some((e) => e.level === "warn" && /connection lost/.test(e.msg ?? ""))).toBe(true);
    expect(logger.entries.some((e) => e.level === "error" && /connection closed/.test(e.msg ?? ""))).toBe(false);
  }, 30_000);

  // Not a silent stop: the consumer is re-created and said so (jetstream-heal.test.ts has the details).
  it("warns, naming the consumer, when the durable consumer is deleted under a running subscription, and re-creates it", async () => {
    const w = await world();
    const logger = recordingLogger();
    const bus = await w.bus({ logger });
    await bus.subscribe({ consumer: "svc.gone", types: ["a.b"], handler: async () => {} });
    await w.jsm.consumers.delete(w.streamName, "svc_gone");
    await waitFor(() => logger.entries.some((e) => e.level === "warn" && e.obj.consumer === "svc.gone" && /re-created/.test(e.msg ?? "")), "a warning naming the consumer", 10_000);
    expect((await w.jsm.consumers.info(w.streamName, "svc_gone")).config.durable_name).toBe("svc_gone");
  }, 15_000);
});
