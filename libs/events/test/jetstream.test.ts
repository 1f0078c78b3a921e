import { afterEach, describe, expect, it } from "vitest";
import { StringCodec } from "nats";
import type { DeadLetterData, EventEnvelope } from "../src/index.js";
import { busContract } from "./contract.js";
import { createJetStreamWorld, type JetStreamWorld } from "./helpers/jetstream.js";
import { sleep, waitFor } from "./helpers/wait.js";

const worlds: JetStreamWorld[] = [];
async function world(): Promise<JetStreamWorld> {
  const w = await createJetStreamWorld({ ackWaitMs: 5_000 });
  worlds.push(w);
  return w;
}
async function disposeWorlds() {
  await Promise.all(worlds.splice(0).map((w) => w.dispose()));
}

busContract("jetstream", {
  async newBus(opts) {
    return (await world()).bus(opts);
  },
  cleanup: disposeWorlds,
});

describe("jetstream specifics", () => {
  afterEach(disposeWorlds);

  it("creates the stream with file storage, prefix subjects and a dedupe window", async () => {
    const w = await world();
    await w.bus({ duplicateWindowMs: 120_000 });
    const info = await w.jsm.streams.info(w.streamName);
    expect(info.config).toMatchObject({ subjects: [`${w.subjectPrefix}.>`], storage: "file", duplicate_window: 120_000 * 1e6 });
    // A second start against the existing stream is fine (update path).
    await w.bus({ duplicateWindowMs: 60_000 });
    expect((await w.jsm.streams.info(w.streamName)).config.duplicate_window).toBe(60_000 * 1e6);
  });

  it("deleteStreamOnClose: close() deletes the bus's own stream (tests on a shared server leave none behind); without it the stream stays", async () => {
    const w = await world();
    const streamNames = async () => {
      const names: string[] = [];
      for await (const s of w.jsm.streams.list()) names.push(s.config.name);
      return names;
    };
    await (await w.bus()).close();
    expect(await streamNames()).toContain(w.streamName);
    await (await w.bus({ deleteStreamOnClose: true })).close();
    expect(await streamNames()).not.toContain(w.streamName);
  });

  it("publishes to <prefix>.<type> with Nats-Msg-Id and traceparent headers", async () => {
    const w = await world();
    const bus = await w.bus();
    const e = await bus.publish({ type: "media.file.deleted", customerId: 3, data: { fileId: 9 } });
    const stored = await w.jsm.streams.getMessage(w.streamName, { seq: 1 });
    expect(stored.subject).toBe(`${w.subjectPrefix}.media.file.deleted`);
    expect(stored.header.get("Nats-Msg-Id")).toBe(e.id);
    expect(JSON.parse(StringCodec().decode(stored.data))).toEqual(e);
  });

  it("splits work between two processes (connections) sharing a consumer name", async () => {
    const w = await world();
    const [p1, p2, producer] = [await w.bus(), await w.bus(), await w.bus()];
    const got = { p1: [] as string[], p2: [] as string[] };
    const handler = (k: keyof typeof got) => async (e: EventEnvelope) => {
      got[k].push(e.id);
      await sleep(20);
    };
    await p1.subscribe({ consumer: "media.customer-created", types: ["customer.created"], handler: handler("p1") });
    await p2.subscribe({ consumer: "media.customer-created", types: ["customer.created"], handler: handler("p2") });
    for (let i = 0; i < 20; i++) await producer.publish({ type: "customer.created", customerId: i, data: {} });
    await waitFor(() => got.p1.length + got.p2.length >= 20, "all deliveries");
    await sleep(200);
    expect(new Set([...got.p1, ...got.p2]).size).toBe(20);
    expect(got.p1.length + got.p2.length).toBe(20);
    expect(got.p1.length).toBeGreaterThan(0);
    expect(got.p2.length).toBeGreaterThan(0);
  });

  it("close() acks in-flight work before draining, so nothing is redelivered", async () => {
    const w = await world();
    const bus = await w.bus();
    let started = false;
    let done = 0;
    await bus.subscribe({
      consumer: "drainer",
      types: ["a.b"],
      handler: async () => {
        started = true;
        await sleep(200);
        done++;
      },
    });
    await bus.publish({ type: "a.b", customerId: 1, data: {} });
    await waitFor(() => started, "handler start");
    await bus.close();
    expect(done).toBe(1);
    const info = await w.jsm.consumers.info(w.streamName, "drainer");
    expect(info.num_ack_pending).toBe(0);
    expect(info.num_pending).toBe(0);
    expect(info.num_redelivered).toBe(0);
  });

  it("dead-letters a payload that is not an envelope", async () => {
    const w = await world();
    const bus = await w.bus();
    const dead: EventEnvelope<DeadLetterData>[] = [];
    let handled = 0;
    await bus.subscribe({ consumer: "strict", types: ["customer.created"], handler: async () => void handled++ });
    await bus.subscribe<DeadLetterData>({ consumer: "dlq", types: ["deadletter.>"], handler: async (e) => void dead.push(e) });
    await w.nc.jetstream().publish(`${w.subjectPrefix}.customer.created`, StringCodec().encode("not json"));
    await waitFor(() => dead.length === 1, "dead letter");
    expect(handled).toBe(0);
    expect(dead[0]).toMatchObject({ type: "deadletter.invalid", data: { consumer: "strict", event: null, raw: "not json" } });
  });

  it("startFrom decides whether a brand-new consumer sees earlier events", async () => {
    const w = await world();
    const bus = await w.bus();
    await bus.publish({ type: "customer.created", customerId: 1, data: "early" });
    const all: unknown[] = [];
    const fresh: unknown[] = [];
    await bus.subscribe({ consumer: "catch-up", types: ["customer.created"], startFrom: "all", handler: async (e) => void all.push(e.data) });
    await bus.subscribe({ consumer: "from-now", types: ["customer.created"], handler: async (e) => void fresh.push(e.data) });
    await bus.publish({ type: "customer.created", customerId: 1, data: "late" });
    await waitFor(() => all.length === 2 && fresh.length === 1, "deliveries");
    expect(all).toEqual(["early", "late"]);
    expect(fresh).toEqual(["late"]);
  });

  it("maps consumer names with dots to valid durable names", async () => {
    const w = await world();
    const bus = await w.bus();
    await bus.subscribe({ consumer: "media.customer-created", types: ["customer.created"], handler: async () => {} });
    const info = await w.jsm.consumers.info(w.streamName, "media_customer-created");
    expect(info.config).toMatchObject({ ack_policy: "explicit", filter_subject: `${w.subjectPrefix}.customer.created` });
  });
});
