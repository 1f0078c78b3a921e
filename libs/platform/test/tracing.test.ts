import { Code, ConnectError, createClient, type ConnectRouter } from "@connectrpc/connect";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  clientTracingInterceptor,
  createInMemoryTransport,
  createService,
  createServiceTransport,
  serverTracingInterceptor,
  startTelemetry,
  type Service,
  type Telemetry,
} from "./support/platform.js";
import { memoryLogger } from "./support/memory-logger.js";

const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor(exporter);
let telemetry: Telemetry;
let service: Service;
let url: string;
const { logger, lines } = memoryLogger("probe");

// Public logs from inside the handler, so the test can see which span was active there.
function registerLoggingProbe(router: ConnectRouter) {
  router.service(ProbeService, {
    public(req) {
      logger.info({ text: req.text }, "handling Public");
      return { text: req.text };
    },
    viewerRead: () => {
      throw new Error("boom");
    },
    unannotated: () => {
      throw new ConnectError("denied", Code.PermissionDenied);
    },
  });
}

beforeAll(async () => {
  telemetry = startTelemetry({
    serviceName: "tracing-test",
    instrumentations: "none",
    spanProcessors: [processor],
  });
  const tracer = trace.getTracer("test");
  service = createService({
    name: "probe",
    logger,
    register: registerLoggingProbe,
    interceptors: [serverTracingInterceptor(tracer)],
  });
  ({ url } = await service.listen({ host: "127.0.0.1", port: 0 }));
});
afterAll(async () => {
  await service.close({ timeoutMs: 1000 });
  await telemetry.shutdown();
});
beforeEach(async () => {
  await processor.forceFlush();
  exporter.reset();
});

const tracer = () => trace.getTracer("test");
// Export waits for async resource attributes (host id), so flush before reading.
async function finished(kind: SpanKind): Promise<ReadableSpan[]> {
  await processor.forceFlush();
  return exporter.getFinishedSpans().filter((s) => s.kind === kind);
}

describe.each([
  ["grpc", () => createServiceTransport({ baseUrl: url, protocol: "grpc", interceptors: [clientTracingInterceptor(tracer())] })],
  ["connect", () => createServiceTransport({ baseUrl: url, protocol: "connect", interceptors: [clientTracingInterceptor(tracer())] })],
  [
    "in-memory",
    () =>
      createInMemoryTransport(service.routes, {
        interceptors: service.interceptors,
        clientInterceptors: [clientTracingInterceptor(tracer())],
      }),
  ],
])("rpc tracing over %s", (protocol, transport) => {
  it("links caller -> CLIENT -> SERVER in one trace, with the server span active in the handler", async () => {
    const probe = createClient(ProbeService, transport());
    const caller = await tracer().startActiveSpan("caller", async (span) => {
      await probe.public({ text: `traced-${protocol}` });
      span.end();
      return span;
    });

    const [client] = await finished(SpanKind.CLIENT);
    const [server] = await finished(SpanKind.SERVER);
    expect(client.name).toBe("signage.testing.v1.ProbeService/Public");
    expect(server.name).toBe("signage.testing.v1.ProbeService/Public");

    const traceId = caller.spanContext().traceId;
    expect(client.spanContext().traceId).toBe(traceId);
    expect(server.spanContext().traceId).toBe(traceId);
    expect(client.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
    expect(server.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
    // Over the network the parent arrives in `traceparent`; in memory the
    // CLIENT span is simply still active.
    expect(Boolean(server.parentSpanContext?.isRemote)).toBe(protocol !== "in-memory");

    expect(server.attributes).toMatchObject({
      "rpc.system": protocol === "grpc" ? "grpc" : "connect_rpc",
      "rpc.service": "signage.testing.v1.ProbeService",
      "rpc.method": "Public",
      "rpc.grpc.status_code": 0,
    });
    expect(client.attributes["rpc.method"]).toBe("Public");

    const handlerLog = lines().find((l) => l.text === `traced-${protocol}`);
    expect(handlerLog).toMatchObject({ trace_id: traceId, span_id: server.spanContext().spanId });
  });

  it("marks every failure on the CLIENT span, only server faults on the SERVER span", async () => {
    const probe = createClient(ProbeService, transport());

    await expect(probe.unannotated({})).rejects.toMatchObject({ code: Code.PermissionDenied });
    let [client] = await finished(SpanKind.CLIENT);
    let [server] = await finished(SpanKind.SERVER);
    expect(client.status.code).toBe(SpanStatusCode.ERROR);
    expect(client.attributes["rpc.grpc.status_code"]).toBe(Code.PermissionDenied);
    // The caller's fault, not the server's (OTel RPC conventions).
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    expect(server.attributes["rpc.grpc.status_code"]).toBe(Code.PermissionDenied);

    await processor.forceFlush();
    exporter.reset();
    await expect(probe.viewerRead({})).rejects.toMatchObject({ code: Code.Internal });
    [client] = await finished(SpanKind.CLIENT);
    [server] = await finished(SpanKind.SERVER);
    expect(client.status.code).toBe(SpanStatusCode.ERROR);
    expect(server.status).toMatchObject({ code: SpanStatusCode.ERROR, message: expect.stringContaining("boom") });
    expect(server.events.map((e) => e.name)).toContain("exception");
  });
});
