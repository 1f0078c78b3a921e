// "Trace ids span" every hop (DESIGN.md): a read coalesced with other requests'
// reads must still show up in its own request's trace, and lead to the
// statement that answered it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { context, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { batchedReads } from "../src/index.js";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer("test");

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(async () => {
  await provider.shutdown();
  context.disable();
});

const named = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("batchedReads in traces", () => {
  it("each caller gets its own read span in its trace, linked to the one batch span (a new trace linked back to every caller)", async () => {
    exporter.reset();
    let statementSpan: string | undefined;
    const reads = batchedReads<number, { id: number }>({
      name: "item by id",
      tracer,
      readMany: async (ids) => {
        statementSpan = trace.getActiveSpan()?.spanContext().spanId;
        return ids.map((id) => ({ id }));
      },
      keyOf: (row) => row.id,
    });
    const request = (label: string, id: number) => tracer.startActiveSpan(label, async (span) => ((await reads.load(id))?.id, span.end(), span.spanContext()));
    const [a, b] = await Promise.all([request("request A", 1), request("request B", 2)]);

    const [batch] = named("item by id batch");
    expect(named("item by id batch")).toHaveLength(1);
    expect(parentOf(batch)).toBeUndefined();
    expect([a.traceId, b.traceId]).not.toContain(batch.spanContext().traceId);
    expect(batch.links.map((l) => l.context.spanId).sort()).toEqual([a.spanId, b.spanId].sort());
    expect(batch.attributes).toMatchObject({ "db.batch.keys": 2, "db.batch.callers": 2 });
    // The statement ran inside the batch span (where pg's own span lands).
    expect(statementSpan).toBe(batch.spanContext().spanId);

    const perCaller = named("item by id");
    expect(perCaller.map((s) => s.spanContext().traceId).sort()).toEqual([a.traceId, b.traceId].sort());
    expect(perCaller.map(parentOf).sort()).toEqual([a.spanId, b.spanId].sort());
    for (const span of perCaller) expect(span.links.map((l) => l.context.spanId)).toEqual([batch.spanContext().spanId]);
  });

  it("a failed statement marks the batch span and every caller's span as errors", async () => {
    exporter.reset();
    const reads = batchedReads<number, { id: number }>({
      tracer,
      readMany: async () => {
        throw new Error("relation does not exist");
      },
      keyOf: (row) => row.id,
    });
    const outcome = await tracer.startActiveSpan("request", async (span) => reads.load(1).finally(() => span.end())).catch((e: Error) => e.message);
    expect(outcome).toBe("relation does not exist");
    for (const name of ["batched read batch", "batched read"]) {
      expect(named(name).map((s) => [s.status.code, s.status.message])).toEqual([[SpanStatusCode.ERROR, "relation does not exist"]]);
    }
  });
});
