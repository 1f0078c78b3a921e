// Metrics for on-call: where they are exported, and the RPC duration histograms every
// service records per method and status code (rate, errors, latency from one instrument).
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Code, ConnectError, createClient, type StreamResponse } from "@connectrpc/connect";
import { metrics, trace } from "@opentelemetry/api";
import { MeterProvider, MetricReader, type DataPoint, type Histogram } from "@opentelemetry/sdk-metrics";
import { Health } from "@signage/contracts/grpc/health/v1/health_pb";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clientTracingInterceptor,
  ConfigError,
  createInMemoryTransport,
  createService,
  createServiceTransport,
  serverTracingInterceptor,
  startTelemetry,
  type Service,
  type Telemetry,
} from "./support/platform.js";
import { memoryLogger } from "./support/memory-logger.js";

/** A reader the test collects from when it likes. */
class CollectingReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

type HistogramPoint = DataPoint<Histogram>;
async function histogramPoints(reader: MetricReader, name: string): Promise<HistogramPoint[]> {
  const { resourceMetrics } = await reader.collect();
  return resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).filter((m) => m.descriptor.name === name).flatMap((m) => m.dataPoints as HistogramPoint[]);
}
const countOf = (points: HistogramPoint[], attributes: Record<string, unknown>) =>
  points.filter((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v)).reduce((n, p) => n + p.value.count, 0);

/** An OTLP/HTTP collector that records which signal paths it was sent. */
async function fakeCollector(): Promise<{ url: string; paths: string[]; close(): Promise<void> }> {
  const paths: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on("end", () => {
      paths.push(req.url ?? "");
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths, close: () => new Promise((r) => server.close(() => r())) };
}

describe("metric export", () => {
  it("sends metrics as OTLP/HTTP to <endpoint>/v1/metrics beside the traces", async () => {
    const collector = await fakeCollector();
    const telemetry = startTelemetry({ serviceName: "metrics-export", otlpEndpoint: collector.url, instrumentations: "none", env: {}, logger: memoryLogger().logger });
    metrics.getMeter("test").createCounter("test.things").add(3);
    trace.getTracer("test").startSpan("work").end();
    await telemetry.shutdown(); // flushes both
    await collector.close();
    expect(collector.paths.sort()).toEqual(["/v1/metrics", "/v1/traces"]);
  });

  it("OTEL_METRICS_EXPORTER=none keeps the traces and sends no metrics", async () => {
    const collector = await fakeCollector();
    const telemetry = startTelemetry({ serviceName: "metrics-off", otlpEndpoint: collector.url, instrumentations: "none", env: { OTEL_METRICS_EXPORTER: "none" }, logger: memoryLogger().logger });
    metrics.getMeter("test").createCounter("test.things").add(3);
    trace.getTracer("test").startSpan("work").end();
    await telemetry.shutdown();
    await collector.close();
    expect(collector.paths).toEqual(["/v1/traces"]);
  });

  it("reads OTEL_METRICS_EXPORTER as the standard comma list, case-insensitively, and says which exporters it ignores", async () => {
    for (const [value, exported] of [
      ["OTLP", true],
      ["console,otlp", true],
      ["none", false],
      ["console", false],
    ] as const) {
      const collector = await fakeCollector();
      const { logger, lines } = memoryLogger();
      const telemetry = startTelemetry({ serviceName: "metrics-list", otlpEndpoint: collector.url, instrumentations: "none", env: { OTEL_METRICS_EXPORTER: value }, logger });
      metrics.getMeter("test").createCounter("test.things").add(1);
      await telemetry.shutdown();
      await collector.close();
      expect(collector.paths.includes("/v1/metrics"), value).toBe(exported);
      expect(lines().some((l) => String(l.msg).includes("console not available")), value).toBe(value.includes("console"));
    }
  });

  it("refuses an export interval below one second, naming the variable", () => {
    expect(() => startTelemetry({ serviceName: "metrics-bad", otlpEndpoint: "http://127.0.0.1:1", instrumentations: "none", env: { OTEL_METRIC_EXPORT_INTERVAL: "10" } })).toThrow(ConfigError);
    expect(() => startTelemetry({ serviceName: "metrics-bad", otlpEndpoint: "http://127.0.0.1:1", instrumentations: "none", env: { OTEL_METRIC_EXPORT_INTERVAL: "10" } })).toThrow(/OTEL_METRIC_EXPORT_INTERVAL/);
  });
});

describe("rpc.server.call.duration / rpc.client.call.duration", () => {
  const reader = new CollectingReader();
  let telemetry: Telemetry;
  let service: Service;
  let url: string;

  beforeAll(async () => {
    telemetry = startTelemetry({ serviceName: "rpc-metrics", instrumentations: "none", metricReaders: [reader], logger: memoryLogger().logger });
    service = createService({
      name: "probe",
      logger: memoryLogger().logger,
      interceptors: [serverTracingInterceptor(trace.getTracer("test"))],
      register: (router) =>
        router.service(ProbeService, {
          public: (req) => ({ text: req.text }),
          viewerRead: () => {
            throw new Error("boom");
          },
          unannotated: () => {
            throw new ConnectError("denied", Code.PermissionDenied);
          },
        }),
    });
    ({ url } = await service.listen({ host: "127.0.0.1", port: 0 }));
  });
  afterAll(async () => {
    await service.close({ timeoutMs: 1000 });
    await telemetry.shutdown();
  });

  it.each([
    ["connect", "connectrpc", () => createServiceTransport({ baseUrl: url, protocol: "connect", interceptors: [clientTracingInterceptor(trace.getTracer("test"))] })],
    ["grpc", "grpc", () => createServiceTransport({ baseUrl: url, protocol: "grpc", interceptors: [clientTracingInterceptor(trace.getTracer("test"))] })],
    ["in-memory", "connectrpc", () => createInMemoryTransport(service.routes, { interceptors: service.interceptors, clientInterceptors: [clientTracingInterceptor(trace.getTracer("test"))] })],
  ])("records one duration per call over %s, by method and the status code the caller saw", async (_name, system, transport) => {
    const serverBefore = await histogramPoints(reader, "rpc.server.call.duration");
    const clientBefore = await histogramPoints(reader, "rpc.client.call.duration");
    const probe = createClient(ProbeService, transport());
    await probe.public({ text: "a" });
    await probe.public({ text: "b" });
    await expect(probe.unannotated({})).rejects.toMatchObject({ code: Code.PermissionDenied });
    await expect(probe.viewerRead({})).rejects.toMatchObject({ code: Code.Internal });
    // Health probes make no traces, and no call counts either.
    await createClient(Health, transport()).check({});

    const server = await histogramPoints(reader, "rpc.server.call.duration");
    const client = await histogramPoints(reader, "rpc.client.call.duration");
    const added = (after: HistogramPoint[], before: HistogramPoint[], attributes: Record<string, unknown>) => countOf(after, attributes) - countOf(before, attributes);
    const probeMethod = (name: string) => `signage.testing.v1.ProbeService/${name}`;
    for (const [after, before] of [
      [server, serverBefore],
      [client, clientBefore],
    ] as const) {
      expect(added(after, before, { "rpc.system.name": system, "rpc.method": probeMethod("Public"), "rpc.status_code": "OK" })).toBe(2);
      expect(added(after, before, { "rpc.method": probeMethod("Unannotated"), "rpc.status_code": "PERMISSION_DENIED" })).toBe(1);
      expect(added(after, before, { "rpc.method": probeMethod("ViewerRead"), "rpc.status_code": "INTERNAL" })).toBe(1);
      expect(after.filter((p) => String(p.attributes["rpc.method"]).startsWith("grpc.health.v1.Health/"))).toEqual([]);
      // Only the stable attributes: nothing per caller, nothing unbounded.
      for (const point of after) expect(Object.keys(point.attributes).sort()).toEqual(["rpc.method", "rpc.status_code", "rpc.system.name"]);
    }
    const ok = server.find((p) => p.attributes["rpc.method"] === probeMethod("Public") && p.attributes["rpc.system.name"] === system)!;
    expect(ok.value.sum).toBeGreaterThan(0);
    expect(ok.value.sum).toBeLessThan(5); // seconds, not milliseconds
  });
});

describe("rpc.server.call.duration of a server stream", () => {
  const streamRequest = () =>
    ({
      stream: true,
      service: { typeName: "signage.testing.v1.Streamer" },
      method: { name: "Watch" },
      header: new Headers({ "content-type": "application/grpc+proto" }),
      message: (async function* () {})(),
    }) as never;

  async function serve(body: () => AsyncGenerator<number>, stopAfter?: number) {
    const reader = new CollectingReader();
    const meter = new MeterProvider({ readers: [reader] }).getMeter("test");
    const interceptor = serverTracingInterceptor(trace.getTracer("test"), meter);
    const next = async () => ({ stream: true, message: body() }) as unknown as StreamResponse;
    const res = (await interceptor(next as never)(streamRequest())) as StreamResponse;
    const seen: number[] = [];
    try {
      for await (const n of res.message as AsyncIterable<number>) {
        seen.push(n);
        if (seen.length === stopAfter) break;
      }
    } catch {
      // the stream's own error: the caller saw it
    }
    return { seen, points: await histogramPoints(reader, "rpc.server.call.duration") };
  }

  it("is recorded once the stream ends, not when the handler returned it, under the stream's outcome", async () => {
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const done = await serve(async function* () {
      yield 1;
      await wait(30);
      yield 2;
    });
    expect(done.seen).toEqual([1, 2]);
    expect(countOf(done.points, { "rpc.method": "signage.testing.v1.Streamer/Watch", "rpc.status_code": "OK" })).toBe(1);
    expect(done.points[0]!.value.sum).toBeGreaterThanOrEqual(0.025);

    const failed = await serve(async function* () {
      yield 1;
      throw new ConnectError("gone", Code.NotFound);
    });
    expect(countOf(failed.points, { "rpc.status_code": "NOT_FOUND" })).toBe(1);

    const cut = await serve(async function* () {
      for (let n = 0; ; n++) yield n;
    }, 3);
    expect(countOf(cut.points, { "rpc.status_code": "CANCELLED" })).toBe(1);
    expect(cut.points.reduce((n, p) => n + p.value.count, 0)).toBe(1);
  });
});
