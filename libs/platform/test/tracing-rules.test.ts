// Which calls get spans, and what a failed call's spans say: health checks make no
// traces (probes every few seconds would flood them), and a crashed handler's SERVER
// span reports the code the caller actually receives, with the error's class as its type.
import { Code, ConnectError, createClient, type ConnectRouter, type Transport } from "@connectrpc/connect";
import { SpanKind, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { Health, HealthCheckResponse_ServingStatus } from "@signage/contracts/grpc/health/v1/health_pb";
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
import { grpcJsHealthClient } from "./support/grpc-js-health.js";

class LedgerCorruptedError extends Error {
  readonly code = "XX001"; // as pg's errors carry an SQLSTATE: recordException would take it for the type
}

const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor(exporter);
let telemetry: Telemetry;
let service: Service;
let url: string;
let port: number;

function registerCrashingProbe(router: ConnectRouter) {
  router.service(ProbeService, {
    public: (req) => ({ text: req.text }),
    viewerRead: () => {
      throw new LedgerCorruptedError("ledger corrupted");
    },
    unannotated: () => {
      throw new ConnectError("denied", Code.PermissionDenied);
    },
  });
}

beforeAll(async () => {
  telemetry = startTelemetry({ serviceName: "tracing-rules", instrumentations: "none", spanProcessors: [processor] });
  service = createService({
    name: "probe",
    logger: memoryLogger("probe").logger,
    register: registerCrashingProbe,
    interceptors: [serverTracingInterceptor(trace.getTracer("test"))],
  });
  ({ url, port } = await service.listen({ host: "127.0.0.1", port: 0 }));
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
const transports: Array<[string, () => Transport]> = [
  ["grpc", () => createServiceTransport({ baseUrl: url, protocol: "grpc", interceptors: [clientTracingInterceptor(tracer())] })],
  ["connect", () => createServiceTransport({ baseUrl: url, protocol: "connect", interceptors: [clientTracingInterceptor(tracer())] })],
  [
    "in-memory",
    () => createInMemoryTransport(service.routes, { interceptors: service.interceptors, clientInterceptors: [clientTracingInterceptor(tracer())] }),
  ],
];

describe.each(transports)("over %s", (_protocol, transport) => {
  it("makes no span for grpc.health.v1.Health/Check, on either side", async () => {
    const health = createClient(Health, transport());
    expect((await health.check({ service: "" })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    // A real call just after still is traced (the exporter works).
    await createClient(ProbeService, transport()).public({ text: "x" });
    await processor.forceFlush();
    expect(exporter.getFinishedSpans().map((s) => s.name).sort()).toEqual([
      "signage.testing.v1.ProbeService/Public",
      "signage.testing.v1.ProbeService/Public",
    ]);
  });

  it("reports a crashed handler's wire code (Internal) on the SERVER span, typed by the error's class", async () => {
    const probe = createClient(ProbeService, transport());
    const error = await probe.viewerRead({}).then(() => undefined, (e: unknown) => ConnectError.from(e));
    expect(error?.code).toBe(Code.Internal);

    await processor.forceFlush();
    const [server] = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
    const [client] = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.CLIENT);
    expect(server!.attributes).toMatchObject({ "rpc.grpc.status_code": Code.Internal, "rpc.connect_rpc.error_code": "Internal" });
    expect(client!.attributes["rpc.grpc.status_code"]).toBe(Code.Internal);
    const exception = server!.events.find((e) => e.name === "exception");
    expect(exception?.attributes).toMatchObject({ "exception.type": "LedgerCorruptedError", "exception.message": "ledger corrupted" });
    expect(client!.events.find((e) => e.name === "exception")?.attributes?.["exception.type"]).toBe("ConnectError");
  });
});

it("makes no span for a Kubernetes-style probe from another gRPC implementation", async () => {
  const probe = grpcJsHealthClient(`127.0.0.1:${port}`);
  try {
    expect((await probe.check("")).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
  } finally {
    probe.close();
  }
  await processor.forceFlush();
  expect(exporter.getFinishedSpans()).toEqual([]);
});
