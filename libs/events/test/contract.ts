import { trace, type SpanContext } from "@opentelemetry/api";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DeadLetterData, EventBus, EventEnvelope } from "../src/index.js";
import { installTracing } from "./helpers/otel.js";
import { sleep, waitFor } from "./helpers/wait.js";

export interface TestBusOptions {
  maxDeliver: number;
  nakDelayMs: number;
}

/** Gives each test an isolated bus on real infrastructure. */
export interface ContractHarness {
  newBus(opts?: Partial<TestBusOptions>): Promise<EventBus>;
  /** Closes and deletes everything created by newBus since the last cleanup. */
  cleanup(): Promise<void>;
}

const DEFAULTS: TestBusOptions = { maxDeliver: 3, nakDelayMs: 50 };

/** Behaviour every EventBus adapter must share. */
export function busContract(adapter: string, harness: ContractHarness): void {
  describe(`EventBus contract: ${adapter}`, () => {
    let tracing: ReturnType<typeof installTracing>;
    beforeAll(() => {
      tracing = installTracing();
    });
    afterAll(() => tracing.uninstall());
    afterEach(() => harness.cleanup());

    const newBus = (o: Partial<TestBusOptions> = {}) => harness.newBus({ ...DEFAULTS, ...o });

    it("delivers the published envelope intact", async () => {
      const bus = await newBus();
      const received: EventEnvelope[] = [];
      await bus.subscribe({ consumer: "media.customer-created", types: ["customer.created"], handler: async (e) => void received.push(e) });

      const before = Date.now();
      const published = await bus.publish({ type: "customer.created", customerId: 42, data: { name: "Acme", tags: ["a", "b"], nested: { n: 1 } } });
      await waitFor(() => received.length === 1, "delivery");

      expect(received[0]).toEqual(published);
      expect(published).toMatchObject({ type: "customer.created", customerId: 42, data: { name: "Acme" } });
      expect(published.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(published.time).toBeGreaterThanOrEqual(before);
      expect(published.time).toBeLessThanOrEqual(Date.now());
    });

    it("keeps a caller-supplied id and a null customerId", async () => {
      const bus = await newBus();
      const received: EventEnvelope[] = [];
      await bus.subscribe({ consumer: "c", types: ["platform.tick"], handler: async (e) => void received.push(e) });
      await bus.publish({ id: "evt-fixed-1", type: "platform.tick", customerId: null, data: null });
      await waitFor(() => received.length === 1, "delivery");
      expect(received[0]).toMatchObject({ id: "evt-fixed-1", customerId: null, data: null });
    });

    it("never runs the handler inside publish()", async () => {
      const bus = await newBus();
      let insidePublish = false;
      let ranInside: boolean | undefined;
      await bus.subscribe({ consumer: "c", types: ["x.y"], handler: async () => void (ranInside = insidePublish) });
      insidePublish = true;
      const pending = bus.publish({ type: "x.y", customerId: 1, data: {} });
      insidePublish = false;
      await pending;
      await waitFor(() => ranInside !== undefined, "delivery");
      expect(ranInside).toBe(false);
    });

    it("redelivers after a handler failure and processes exactly once", async () => {
      const bus = await newBus();
      let attempts = 0;
      let successes = 0;
      await bus.subscribe({
        consumer: "flaky",
        types: ["customer.created"],
        handler: async () => {
          attempts++;
          if (attempts === 1) throw new Error("transient");
          successes++;
        },
      });
      await bus.publish({ type: "customer.created", customerId: 1, data: {} });
      await waitFor(() => successes === 1, "successful redelivery");
      await sleep(300);
      expect({ attempts, successes }).toEqual({ attempts: 2, successes: 1 });
    });

    it("drops a re-publish of the same id within the dedupe window", async () => {
      const bus = await newBus();
      const seen: EventEnvelope[] = [];
      await bus.subscribe({ consumer: "c", types: ["customer.*"], handler: async (e) => void seen.push(e) });
      await bus.publish({ id: "dup-1", type: "customer.created", customerId: 1, data: { v: 1 } });
      await bus.publish({ id: "dup-1", type: "customer.created", customerId: 1, data: { v: 2 } });
      await bus.publish({ type: "customer.sentinel", customerId: 1, data: {} });
      await waitFor(() => seen.some((e) => e.type === "customer.sentinel"), "sentinel");
      await sleep(200);
      const dups = seen.filter((e) => e.id === "dup-1");
      expect(dups).toHaveLength(1);
      expect(dups[0].data).toEqual({ v: 1 });
    });

    it("gives every consumer name all events and splits work within a name", async () => {
      const bus = await newBus();
      const byMember = { a1: [] as string[], a2: [] as string[], b: [] as string[] };
      const member = (key: keyof typeof byMember) => async (e: EventEnvelope) => {
        byMember[key].push(e.id);
        await sleep(15);
      };
      await bus.subscribe({ consumer: "svc-a", types: ["job.run"], handler: member("a1") });
      await bus.subscribe({ consumer: "svc-a", types: ["job.run"], handler: member("a2") });
      await bus.subscribe({ consumer: "svc-b", types: ["job.run"], handler: member("b") });

      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push((await bus.publish({ type: "job.run", customerId: 1, data: { i } })).id);
      await waitFor(() => byMember.a1.length + byMember.a2.length >= 20 && byMember.b.length >= 20, "all deliveries");
      await sleep(200);

      const a = [...byMember.a1, ...byMember.a2];
      expect(a.sort()).toEqual([...ids].sort());
      expect([...byMember.b].sort()).toEqual([...ids].sort());
      expect(byMember.a1.length).toBeGreaterThan(0);
      expect(byMember.a2.length).toBeGreaterThan(0);
    });

    it("matches exact types, `*` and `>` patterns", async () => {
      const bus = await newBus();
      const types: string[] = [];
      await bus.subscribe({ consumer: "patterns", types: ["customer.*", "media.>", "billing.paid"], handler: async (e) => void types.push(e.type) });
      for (const type of ["customer.created", "customer.x.y", "media.file.deleted", "media", "billing.paid", "billing.due", "other.thing"]) {
        await bus.publish({ type, customerId: 1, data: {} });
      }
      await waitFor(() => types.length >= 3, "matching events");
      await sleep(300);
      expect(types.sort()).toEqual(["billing.paid", "customer.created", "media.file.deleted"]);
    });

    it("dead-letters after maxDeliver attempts and stops retrying", async () => {
      const bus = await newBus({ maxDeliver: 3 });
      let attempts = 0;
      const dead: EventEnvelope<DeadLetterData>[] = [];
      await bus.subscribe({ consumer: "broken", types: ["customer.created"], handler: async () => { attempts++; throw new Error("boom"); } });
      await bus.subscribe<DeadLetterData>({ consumer: "dlq", types: ["deadletter.>"], handler: async (e) => void dead.push(e) });

      const original = await bus.publish({ type: "customer.created", customerId: 7, data: { x: 1 } });
      await waitFor(() => dead.length === 1, "dead letter");
      await sleep(300);

      expect(attempts).toBe(3);
      expect(dead).toHaveLength(1);
      expect(dead[0]).toMatchObject({ type: "deadletter.customer.created", customerId: 7 });
      expect(dead[0].data).toEqual({ consumer: "broken", attempts: 3, error: "boom", event: original });
    });

    it("a failing (poison) event never holds back the events behind it", async () => {
      const bus = await newBus({ maxDeliver: 3, nakDelayMs: 200 });
      const order: string[] = [];
      const dead: EventEnvelope<DeadLetterData>[] = [];
      await bus.subscribe<DeadLetterData>({ consumer: "dlq", types: ["deadletter.>"], handler: async (e) => void dead.push(e) });
      await bus.subscribe<string>({
        consumer: "single-file",
        types: ["job.run"],
        handler: async (e) => {
          if (e.data === "poison") throw new Error("never works");
          order.push(e.data);
        },
      });
      await bus.publish({ type: "job.run", customerId: 1, data: "poison" });
      for (const d of ["a", "b", "c"]) await bus.publish({ type: "job.run", customerId: 1, data: d });
      await waitFor(() => order.length === 3, "events behind the poison one", 1_000);
      expect(dead).toHaveLength(0);
      await waitFor(() => dead.length === 1, "dead letter", 5_000);
      expect(order).toEqual(["a", "b", "c"]);
    });

    it("an event whose handler failed survives the subscriber stopping and reaches the next one", async () => {
      const bus = await newBus({ nakDelayMs: 300 });
      let failed = 0;
      const first = await bus.subscribe({ consumer: "handover", types: ["a.b"], handler: async () => { failed++; throw new Error("transient"); } });
      const published = await bus.publish({ type: "a.b", customerId: 1, data: {} });
      await waitFor(() => failed === 1, "failed attempt");
      await first.stop(); // e.g. a rolling restart while the retry is pending
      const got: EventEnvelope[] = [];
      await bus.subscribe({ consumer: "handover", types: ["a.b"], handler: async (e) => void got.push(e) });
      await waitFor(() => got.length === 1, "redelivery to the next subscriber", 5_000);
      await sleep(400);
      expect(got.map((e) => e.id)).toEqual([published.id]);
      expect(failed).toBe(1);
    });

    it("keeps events for a durable consumer while nobody is subscribed", async () => {
      const bus = await newBus();
      const got: unknown[] = [];
      const first = await bus.subscribe({ consumer: "durable", types: ["a.b"], handler: async (e) => void got.push(e.data) });
      await bus.publish({ type: "a.b", customerId: 1, data: 1 });
      await waitFor(() => got.length === 1, "first delivery");
      await first.stop();

      await bus.publish({ type: "a.b", customerId: 1, data: 2 });
      await sleep(100);
      expect(got).toEqual([1]);
      await bus.subscribe({ consumer: "durable", types: ["a.b"], handler: async (e) => void got.push(e.data) });
      await waitFor(() => got.length === 2, "delivery after resubscribe");
      expect(got).toEqual([1, 2]);
    });

    it("continues the publisher's trace in the handler", async () => {
      const bus = await newBus();
      let handlerSpan: SpanContext | undefined;
      let received: EventEnvelope | undefined;
      await bus.subscribe({
        consumer: "traced",
        types: ["customer.created"],
        handler: async (e) => {
          received = e;
          handlerSpan = trace.getActiveSpan()?.spanContext();
        },
      });

      const root = await tracing.tracer.startActiveSpan("http request", async (span) => {
        await bus.publish({ type: "customer.created", customerId: 1, data: {} });
        span.end();
        return span.spanContext();
      });
      await waitFor(() => handlerSpan !== undefined, "traced delivery");

      expect(handlerSpan!.traceId).toBe(root.traceId);
      expect(received!.traceparent).toMatch(new RegExp(`^00-${root.traceId}-[0-9a-f]{16}-01$`));
      await waitFor(() => tracing.exporter.getFinishedSpans().some((s) => s.name === "process customer.created"), "consumer span");
      const spans = tracing.exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === root.traceId);
      const producer = spans.find((s) => s.name === "publish customer.created")!;
      const consumer = spans.find((s) => s.name === "process customer.created")!;
      expect(producer.parentSpanContext?.spanId).toBe(root.spanId);
      expect(consumer.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
      expect(consumer.spanContext().spanId).toBe(handlerSpan!.spanId);
    });

    it("close() lets in-flight handlers finish, then refuses new work", async () => {
      const bus = await newBus();
      let started = false;
      let finished = false;
      await bus.subscribe({
        consumer: "slow",
        types: ["a.b"],
        handler: async () => {
          started = true;
          await sleep(300);
          finished = true;
        },
      });
      await bus.publish({ type: "a.b", customerId: 1, data: {} });
      await waitFor(() => started, "handler start");
      await bus.close();
      expect(finished).toBe(true);
      await expect(bus.publish({ type: "a.b", customerId: 1, data: {} })).rejects.toThrow(/closed/);
      await expect(bus.subscribe({ consumer: "late", types: ["a.b"], handler: async () => {} })).rejects.toThrow(/closed/);
    });

    it("rejects invalid types and patterns", async () => {
      const bus = await newBus();
      await expect(bus.publish({ type: "customer.*", customerId: 1, data: {} })).rejects.toThrow(/invalid event type/);
      await expect(bus.publish({ type: "a..b", customerId: 1, data: {} })).rejects.toThrow(/invalid event type/);
      await expect(bus.subscribe({ consumer: "c", types: ["a.>.b"], handler: async () => {} })).rejects.toThrow(/pattern/);
      await expect(bus.subscribe({ consumer: "c", types: [], handler: async () => {} })).rejects.toThrow(/at least one/);
    });
  });
}
