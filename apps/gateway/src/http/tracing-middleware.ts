// One SERVER span per REST request, named after the route template ("GET /api/v2/user/me", as
// OTel's HTTP conventions name them), so each call is one trace
// from the edge through the services (and NATS). With the HTTP auto-instrumentation on
// (the processes started with the loader hook) that span is the instrumentation's: it is renamed
// and described here, not doubled, and it already continues an incoming traceparent. Without it
// (tests, compositions without the hook) the middleware starts the span itself and continues the
// incoming traceparent.
import { context, isValidTraceId, propagation, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from "@opentelemetry/api";
import { getRPCMetadata, RPCType } from "@opentelemetry/core";
import type { Context, Middleware } from "koa";
import type { ErrorBody } from "./error-body.js";
import { matchedRoute } from "./matched-route.js";

export interface RequestTracing {
  /** Outermost middleware: the request's SERVER span. */
  middleware: Middleware;
  /**
   * Mounted inside the error mapper (which turns errors into bodies): keeps the error a request
   * failed with, so a 5xx span records it as its exception.
   */
  errorCapture: Middleware;
}

export function requestTracing(tracer: Tracer): RequestTracing {
  const failures = new WeakMap<Context, unknown>();
  return {
    async middleware(ctx, next) {
      const instrumented = httpInstrumentationSpan();
      if (instrumented) {
        exposeTraceId(ctx, instrumented);
        try {
          await next();
        } finally {
          describeServerSpan(instrumented, ctx, failures.get(ctx));
          // The instrumentation puts the route on its duration metric (http.server.request.duration)
          // from here: per-route rates and latencies, not one figure for the whole edge.
          const metadata = getRPCMetadata(context.active());
          const route = matchedRoute(ctx);
          if (metadata?.type === RPCType.HTTP && route) metadata.route = route;
        }
        return;
      }
      const parent = propagation.extract(context.active(), ctx.headers);
      const span = tracer.startSpan(ctx.method, { kind: SpanKind.SERVER, attributes: { "http.request.method": ctx.method, "url.path": ctx.path } }, parent);
      exposeTraceId(ctx, span);
      try {
        await context.with(trace.setSpan(parent, span), next);
      } finally {
        // The instrumentation sets the status code from the wire itself; here it is the span's own.
        span.setAttribute("http.response.status_code", ctx.status);
        describeServerSpan(span, ctx, failures.get(ctx));
        span.end();
      }
    },
    async errorCapture(ctx, next) {
      try {
        await next();
      } catch (err) {
        failures.set(ctx, err);
        throw err;
      }
    },
  };
}

/** Response header naming the request's trace: what a caller quotes to find its logs and spans. */
export const TRACE_ID_HEADER = "X-Trace-Id";

/** Set before the handlers run, so streamed and error responses carry it too. */
function exposeTraceId(ctx: Context, span: Span): void {
  const { traceId } = span.spanContext();
  if (isValidTraceId(traceId)) ctx.set(TRACE_ID_HEADER, traceId);
}

/**
 * The HTTP instrumentation's SERVER span of this request, found through the RPC metadata it puts
 * in the context (the active span may be a Koa layer's span instead).
 */
function httpInstrumentationSpan(): Span | undefined {
  const metadata = getRPCMetadata(context.active());
  return metadata?.type === RPCType.HTTP ? metadata.span : undefined;
}

function describeServerSpan(span: Span, ctx: Context, failure: unknown): void {
  const route = matchedRoute(ctx);
  // Unmatched paths keep a name without the path: no ids in span names.
  span.updateName(route ? `${ctx.method} ${route}` : ctx.method);
  if (route) span.setAttribute("http.route", route);
  if (ctx.status < 500) return;
  // The error body's key and message: what the client was told, no internals. (The
  // instrumentation's own status at the response's end keeps it: keepStatusMessage in
  // @signage/platform's instrumentations.ts.)
  const body = ctx.body as Partial<ErrorBody> | undefined;
  const key = typeof body?.key === "string" ? body.key : undefined;
  const message = typeof body?.message === "string" ? body.message : undefined;
  span.setAttribute("error.type", key ?? String(ctx.status));
  span.setStatus({ code: SpanStatusCode.ERROR, message: [key, message].filter(Boolean).join(": ") || undefined });
  // The error itself (message and stack, as the error log has them), when one was thrown.
  if (failure !== undefined) span.recordException(failure instanceof Error ? failure : String(failure));
}
