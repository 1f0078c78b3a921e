import { Code, ConnectError, type StreamResponse } from "@connectrpc/connect";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { serverTracingInterceptor, startTelemetry, type Telemetry } from "./support/platform.js";

// No streaming RPC in the contracts yet: drive the interceptor with a
// hand-made server-streaming request, as connect-node would.
const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor(exporter);
let telemetry: Telemetry;

beforeAll(() => {
  telemetry = startTelemetry({ serviceName: "stream-test", instrumentations: "none", spanProcessors: [processor] });
});
afterAll(() => telemetry.shutdown());
beforeEach(async () => {
  await processor.forceFlush();
  exporter.reset();
});

const streamRequest = {
  stream: true,
  service: { typeName: "signage.testing.v1.Streamer" },
  method: { name: "Watch" },
  header: new Headers({ "content-type": "application/grpc+proto" }),
  message: (async function* () {})(),
} as never;

async function serveStream(body: () => AsyncGenerator<number>) {
  const seenSpanIds: Array<string | undefined> = [];
  const interceptor = serverTracingInterceptor(trace.getTracer("test"));
  const next = async () =>
    ({
      stream: true,
      message: (async function* () {
        for await (const n of body()) {
          // The handler's generator body runs during iteration, not inside next().
          seenSpanIds.push(trace.getActiveSpan()?.spanContext().spanId);
          yield n;
        }
      })(),
    }) as unknown as StreamResponse;
  const res = (await interceptor(next)(streamRequest)) as StreamResponse;
  return { res, seenSpanIds };
}

async function spans() {
  await processor.forceFlush();
  return exporter.getFinishedSpans();
}

describe("server tracing on streaming responses", () => {
  it("keeps the span open and active until the stream ends", async () => {
    const { res, seenSpanIds } = await serveStream(async function* () {
      yield 1;
      yield 2;
    });
    expect(await spans()).toHaveLength(0);
    const got: unknown[] = [];
    for await (const n of res.message) got.push(n);
    expect(got).toEqual([1, 2]);
    const [span] = await spans();
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.name).toBe("signage.testing.v1.Streamer/Watch");
    expect(seenSpanIds).toEqual([span.spanContext().spanId, span.spanContext().spanId]);
    expect(span.attributes["rpc.grpc.status_code"]).toBe(0);
  });

  it("records an error thrown mid-stream", async () => {
    const { res } = await serveStream(async function* () {
      yield 1;
      throw new ConnectError("lost", Code.DataLoss);
    });
    await expect(async () => {
      for await (const _ of res.message) void _;
    }).rejects.toThrow("lost");
    const [span] = await spans();
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes["rpc.grpc.status_code"]).toBe(Code.DataLoss);
  });

  it("ends the span as Canceled when the consumer stops early", async () => {
    const { res } = await serveStream(async function* () {
      yield 1;
      yield 2;
    });
    for await (const _ of res.message) break;
    const [span] = await spans();
    expect(span.attributes["rpc.grpc.status_code"]).toBe(Code.Canceled);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });
});
