// The gateway's SERVER span without HTTP auto-instrumentation (tests, compositions started without
// the loader hook): the tracing middleware starts it, continuing an incoming traceparent.
import { SpanStatusCode } from "@opentelemetry/api";
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
  telemetry = startTelemetry({ serviceName: "request-tracing-test", instrumentations: "none", spanProcessors: [processor] });
  gateway = await listenGateway(outcomeTransport());
});
afterAll(async () => {
  await gateway.close();
  await telemetry.shutdown();
});

const me = (token: string, headers: Record<string, string> = {}) => () => fetch(`${gateway.base}/api/v2/user/me`, { headers: { authorization: `Bearer ${token}`, ...headers } });

describe("the gateway's request span, without HTTP auto-instrumentation", () => {
  it("is the middleware's own, named after the route, continuing the incoming traceparent", async () => {
    const span = expectOneRouteSpanUnderTraceparent(await serverSpansOf(exporter, processor, me("ok", { traceparent: TRACEPARENT })));
    expect(span.instrumentationScope.name).toBe("signage-gateway");
    expect(span.attributes["http.response.status_code"]).toBe(200);
  });

  it("records a 5xx's error and names it in the status", async () => {
    expectCrashRecorded(await serverSpansOf(exporter, processor, me("crash")));
  });

  it("names an expected 5xx (a service down) by the body's key and message", async () => {
    const [span] = await serverSpansOf(exporter, processor, me("down"));
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "error.serviceUnavailable: core is not reachable" });
  });

  it("leaves a 4xx unmarked", async () => {
    expectClientErrorUnmarked(await serverSpansOf(exporter, processor, me("denied")));
  });

  it("names an unmatched path without the path", async () => {
    const spans = await serverSpansOf(exporter, processor, () => fetch(`${gateway.base}/nope/123`));
    expect(spans.map((s) => s.name)).toEqual(["GET"]);
  });

  it("tells the caller its trace id (X-Trace-Id), on success and on a 5xx", async () => {
    for (const token of ["ok", "crash"]) {
      const res = await me(token, { traceparent: TRACEPARENT })();
      await res.arrayBuffer();
      expect(res.headers.get("x-trace-id"), token).toBe(INCOMING.traceId);
    }
  });
});
