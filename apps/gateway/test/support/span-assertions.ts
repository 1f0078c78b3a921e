// What the request-tracing tests check on the gateway's exported SERVER spans, with and without
// the HTTP auto-instrumentation.
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { expect } from "vitest";
import { CRASH_MESSAGE } from "./outcome-service.js";

export const INCOMING = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7" };
export const TRACEPARENT = `00-${INCOMING.traceId}-${INCOMING.spanId}-01`;

/** The SERVER spans of one request, once it has ended (spans end as the response closes). */
export async function serverSpansOf(exporter: InMemorySpanExporter, processor: SimpleSpanProcessor, send: () => Promise<Response>): Promise<ReadableSpan[]> {
  exporter.reset();
  await (await send()).arrayBuffer();
  let spans: ReadableSpan[] = [];
  for (let i = 0; i < 200; i++) {
    await processor.forceFlush();
    spans = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
    if (spans.length > 0) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  // Let a second span (the bug this guards against) end too.
  await new Promise((r) => setTimeout(r, 20));
  await processor.forceFlush();
  return exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
}

/** One span named after the route, continuing the incoming traceparent. */
export function expectOneRouteSpanUnderTraceparent(spans: ReadableSpan[]): ReadableSpan {
  expect(spans.map((s) => s.name)).toEqual(["GET /api/v2/user/me"]);
  const [span] = spans;
  expect(span.spanContext().traceId).toBe(INCOMING.traceId);
  expect(span.parentSpanContext?.spanId).toBe(INCOMING.spanId);
  expect(span.attributes["http.route"]).toBe("/api/v2/user/me");
  expect(span.status.code).toBe(SpanStatusCode.UNSET);
  return span;
}

/** An unexpected failure: ERROR with the error body's key and message, and the error as an exception event. */
export function expectCrashRecorded(spans: ReadableSpan[]): void {
  expect(spans).toHaveLength(1);
  const [span] = spans;
  expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "error.internal: Internal server error" });
  expect(span.attributes["error.type"]).toBe("error.internal");
  const exceptions = span.events.filter((e) => e.name === "exception");
  expect(exceptions).toHaveLength(1);
  expect(exceptions[0].attributes?.["exception.message"]).toContain(CRASH_MESSAGE);
}

/** A 4xx: not an error of the server, no exception. */
export function expectClientErrorUnmarked(spans: ReadableSpan[]): void {
  expect(spans).toHaveLength(1);
  expect(spans[0].status.code).toBe(SpanStatusCode.UNSET);
  expect(spans[0].events.filter((e) => e.name === "exception")).toEqual([]);
}
