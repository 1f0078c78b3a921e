// The gateway's SERVER span with the HTTP auto-instrumentation on, as in the processes started
// with the loader hook: one span per request, the instrumentation's, renamed after the route by
// the tracing middleware (not a second span beside it).
import { createRequire } from "node:module";
import { context, SpanKind } from "@opentelemetry/api";
import { suppressTracing } from "@opentelemetry/core";
import { MetricReader, type DataPoint, type Histogram } from "@opentelemetry/sdk-metrics";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTelemetry, type Telemetry } from "@signage/platform";
import { listenGateway } from "./support/listen-gateway.js";
import { outcomeTransport } from "./support/outcome-service.js";
import { INCOMING, expectClientErrorUnmarked, expectCrashRecorded, expectOneRouteSpanUnderTraceparent, serverSpansOf, TRACEPARENT } from "./support/span-assertions.js";

const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor(exporter);
/** Metrics collected when the test asks (as a periodic exporter would). */
class CollectingReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}
const reader = new CollectingReader();
let telemetry: Telemetry;
let gateway: Awaited<ReturnType<typeof listenGateway>>;
beforeAll(async () => {
  telemetry = startTelemetry({ serviceName: "request-tracing-instrumented-test", instrumentations: "auto", spanProcessors: [processor], metricReaders: [reader] });
  // vitest loads node:http as native ESM, which only the loader hook patches in production; a
  // require() after the SDK started lets the instrumentation patch the shared module.
  createRequire(import.meta.url)("node:http");
  gateway = await listenGateway(outcomeTransport());
});
afterAll(async () => {
  await gateway.close();
  await telemetry.shutdown();
});

/**
 * The test's own fetch, untraced: the fetch (undici) instrumentation would otherwise start a CLIENT
 * span and add its own traceparent beside the test's.
 */
const get = (path: string, headers: Record<string, string> = {}) => () => context.with(suppressTracing(context.active()), () => fetch(`${gateway.base}${path}`, { headers }));
const me = (token: string, headers: Record<string, string> = {}) => get("/api/v2/user/me", { authorization: `Bearer ${token}`, ...headers });

describe("the gateway's request span, with HTTP auto-instrumentation", () => {
  it("is the instrumentation's one SERVER span, named after the route, continuing the incoming traceparent", async () => {
    const span = expectOneRouteSpanUnderTraceparent(await serverSpansOf(exporter, processor, me("ok", { traceparent: TRACEPARENT })));
    expect(span.instrumentationScope.name).toBe("@opentelemetry/instrumentation-http");
    expect(span.attributes["http.response.status_code"]).toBe(200);
  });

  it("records a 5xx's error and keeps its status message past the instrumentation's own status", async () => {
    expectCrashRecorded(await serverSpansOf(exporter, processor, me("crash")));
  });

  it("leaves a 4xx unmarked", async () => {
    expectClientErrorUnmarked(await serverSpansOf(exporter, processor, me("denied")));
  });

  it("names an unmatched path without the path", async () => {
    const spans = await serverSpansOf(exporter, processor, get("/nope/123"));
    expect(spans.map((s) => s.name)).toEqual(["GET"]);
  });

  it("makes no span at all for a health probe", async () => {
    exporter.reset();
    await (await get("/healthz")()).arrayBuffer();
    await new Promise((r) => setTimeout(r, 20));
    await processor.forceFlush();
    expect(exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER)).toEqual([]);
  });

  it("tells the caller its trace id (X-Trace-Id), on success and on a 5xx", async () => {
    for (const token of ["ok", "crash"]) {
      const res = await me(token, { traceparent: TRACEPARENT })();
      await res.arrayBuffer();
      expect(res.headers.get("x-trace-id"), token).toBe(INCOMING.traceId);
    }
  });
});

describe("the gateway's request duration metric", () => {
  /** http.server.request.duration's data points (request counts by attributes). */
  async function durations(): Promise<DataPoint<Histogram>[]> {
    const { resourceMetrics } = await reader.collect();
    return resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).filter((m) => m.descriptor.name === "http.server.request.duration").flatMap((m) => m.dataPoints as DataPoint<Histogram>[]);
  }
  const count = (points: DataPoint<Histogram>[], attributes: Record<string, unknown>) =>
    points.filter((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v)).reduce((n, p) => n + p.value.count, 0);

  it("counts each request under its route template and status (per-route rate, errors and latency); unmatched paths and probes add no route", async () => {
    const before = await durations();
    for (const request of [me("ok"), me("ok"), me("denied"), get("/nope/123"), get("/healthz")]) await (await request()).arrayBuffer();
    const after = await durations();
    const added = (attributes: Record<string, unknown>) => count(after, attributes) - count(before, attributes);
    expect(added({ "http.route": "/api/v2/user/me", "http.request.method": "GET", "http.response.status_code": 200 })).toBe(2);
    expect(added({ "http.route": "/api/v2/user/me", "http.response.status_code": 403 })).toBe(1);
    const unrouted = after.filter((p) => p.attributes["http.route"] === undefined);
    expect(count(unrouted, { "http.response.status_code": 404 }) - count(before.filter((p) => p.attributes["http.route"] === undefined), { "http.response.status_code": 404 })).toBe(1);
    expect(after.some((p) => String(p.attributes["http.route"]).includes("/nope"))).toBe(false);
    // The probe is not instrumented at all: 2 + 1 + 1 requests, not 5.
    expect(added({})).toBe(4);
  });

  it("counts a request its client abandoned under its route as 499, not as an unrouted 404", async () => {
    const before = await durations();
    const abort = new AbortController();
    const request = context.with(suppressTracing(context.active()), () => fetch(`${gateway.base}/api/v2/user/me`, { headers: { authorization: "Bearer slow" }, signal: abort.signal }));
    setTimeout(() => abort.abort(), 50);
    await expect(request).rejects.toThrow();
    let added = 0;
    for (let tries = 0; tries < 100 && added === 0; tries++) {
      await new Promise((r) => setTimeout(r, 10));
      added = count(await durations(), { "http.route": "/api/v2/user/me", "http.response.status_code": 499 }) - count(before, { "http.route": "/api/v2/user/me", "http.response.status_code": 499 });
    }
    expect(added).toBe(1);
    const unrouted404 = (points: DataPoint<Histogram>[]) => count(points.filter((p) => p.attributes["http.route"] === undefined), { "http.response.status_code": 404 });
    expect(unrouted404(await durations())).toBe(unrouted404(before));
    await new Promise((r) => setTimeout(r, 300)); // let the slow handler finish before the suite closes the gateway
  });
});

