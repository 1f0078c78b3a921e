import { trace, type Tracer } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { createInProcessBus, type DeadLetterData, type EventBus, type EventEnvelope, type Logger } from "../src/index.js";
import { busContract } from "./contract.js";
import { sleep, waitFor } from "./helpers/wait.js";

const open: EventBus[] = [];
busContract("in-process", {
  async newBus(opts) {
    const bus = createInProcessBus(opts);
    open.push(bus);
    return bus;
  },
  async cleanup() {
    await Promise.all(open.splice(0).map((b) => b.close()));
  },
});

describe("in-process bus specifics", () => {
  it("replays retained events to a new consumer created with startFrom: all", async () => {
    const bus = createInProcessBus();
    await bus.publish({ type: "customer.created", customerId: 1, data: 1 });
    await bus.publish({ type: "media.file.deleted", customerId: 1, data: 2 });
    const got: unknown[] = [];
    await bus.subscribe({ consumer: "late", types: ["customer.created"], startFrom: "all", handler: async (e) => void got.push(e.data) });
    const fresh: unknown[] = [];
    await bus.subscribe({ consumer: "fresh", types: ["customer.created"], handler: async (e) => void fresh.push(e.data) });
    await waitFor(() => got.length === 1, "replay");
    await sleep(50);
    expect(got).toEqual([1]);
    expect(fresh).toEqual([]);
    await bus.close();
  });

  it("hands handlers a copy, not the publisher's object", async () => {
    const bus = createInProcessBus();
    const data = { list: [1] };
    let received: EventEnvelope<{ list: number[] }> | undefined;
    await bus.subscribe<{ list: number[] }>({ consumer: "c", types: ["a.b"], handler: async (e) => void (received = e) });
    await bus.publish({ type: "a.b", customerId: 1, data });
    data.list.push(2);
    await waitFor(() => received !== undefined, "delivery");
    expect(received!.data).toEqual({ list: [1] });
    await bus.close();
  });

  it("logs, never silently drops, deliveries still pending at close", async () => {
    const warnings: unknown[] = [];
    const log = () => {};
    const logger: Logger = { debug: log, info: log, error: log, warn: (o: unknown) => void warnings.push(o) };
    const bus = createInProcessBus({ logger, nakDelayMs: 10_000 });
    let attempts = 0;
    await bus.subscribe({ consumer: "c", types: ["a.b"], handler: async () => { attempts++; throw new Error("x"); } });
    await bus.publish({ type: "a.b", customerId: 1, data: {} });
    await waitFor(() => attempts === 1, "first attempt");
    await sleep(20);
    await bus.close();
    expect(warnings).toContainEqual({ consumer: "c", abandoned: 1 });
  });

  it("runs up to `concurrency` handlers in parallel", async () => {
    const bus = createInProcessBus();
    let running = 0;
    let peak = 0;
    let done = 0;
    await bus.subscribe({
      consumer: "c",
      types: ["a.b"],
      concurrency: 3,
      handler: async () => {
        peak = Math.max(peak, ++running);
        await sleep(30);
        running--;
        done++;
      },
    });
    for (let i = 0; i < 9; i++) await bus.publish({ type: "a.b", customerId: 1, data: i });
    await waitFor(() => done === 9, "all handled");
    expect(peak).toBe(3);
    await bus.close();
  });

  it("keeps a dead event and retries when its dead letter cannot be published (as JetStream does), instead of dropping it", async () => {
    // The dead-letter publish fails twice (injected through the tracer that wraps every publish).
    const base = trace.getTracer("test");
    let refusals = 2;
    const tracer = new Proxy(base, {
      get(target, prop, receiver) {
        if (prop !== "startActiveSpan") return Reflect.get(target, prop, receiver);
        return (name: string, ...rest: unknown[]) => {
          if (name.startsWith("publish deadletter.") && refusals-- > 0) throw new Error("dead letter publish failed");
          return (target.startActiveSpan as (...a: unknown[]) => unknown)(name, ...rest);
        };
      },
    }) as Tracer;
    const bus = createInProcessBus({ tracer, maxDeliver: 2, nakDelayMs: 20 });
    let attempts = 0;
    const dead: EventEnvelope<DeadLetterData>[] = [];
    await bus.subscribe<DeadLetterData>({ consumer: "dlq", types: ["deadletter.>"], handler: async (e) => void dead.push(e) });
    await bus.subscribe({ consumer: "broken", types: ["a.b"], handler: async () => { attempts++; throw new Error("boom"); } });
    const original = await bus.publish({ type: "a.b", customerId: 1, data: {} });
    await waitFor(() => dead.length === 1, "the dead letter, once its publish works again", 3_000);
    await sleep(100);
    expect(refusals).toBeLessThan(0);
    expect(attempts).toBe(2); // the handler is not run again, only the dead-lettering is retried
    expect(dead[0].data).toMatchObject({ consumer: "broken", attempts: 2, event: { id: original.id } });
    await bus.close();
  });
});
