// The gateway's SERVER span with the HTTP auto-instrumentation on, as in the processes started
// with the loader hook: one span per request, the instrumentation's, renamed after the route by
// the tracing middleware (not a second span beside it).
import { createRequire } from "node:module";
import { context, SpanKind } from "@opentelemetry/api";
import { suppressTracing } from "@opentelemetry/core";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTelemetry, type Telemetry } from "@signage/platform";
import { listenGateway } from "./support/listen-gateway.js";
import { outcomeTransport } from "./support/outcome-service.js";
import { INCOMING, expectClientErrorUnmarked, expectCrashRecorded, expectOneRouteSpanUnderTraceparent, serverSpansOf, TRACEPARENT } from "./support/span-assertions.js";

const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor(exporter);
let telemetry: Telemetry;
let gateway: Awaited<ReturnType<typeof listenGateway>>;
beforeAll(async () => {
  telemetry = startTelemetry({ serviceName: "request-tracing-instrumented-test", instrumentations: "auto", spanProcessors: [processor] });
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
    expect(spans.map((s) => s.name)).toEqual(["HTTP GET"]);
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
