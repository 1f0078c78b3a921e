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
  /**
   * First in every route layer's stack (runs once that route matched, before its handler):
   * hands the route template to the HTTP instrumentation, whose duration metric
   * (http.server.request.duration) then counts the request under it, also when the client
   * leaves before the answer (the instrumentation records at the response's close).
   */
  routeMatched: Middleware;
}

/**
 * nginx's "client closed request": what a request the client abandoned before any answer is
 * counted as, instead of Koa's provisional 404 (nothing goes on the wire: the socket is gone).
 */
export const CLIENT_CLOSED_REQUEST = 499;

export function requestTracing(tracer: Tracer): RequestTracing {
  const failures = new WeakMap<Context, unknown>();
  return {
    async middleware(ctx, next) {
      const instrumented = httpInstrumentationSpan();
      if (instrumented) {
        exposeTraceId(ctx, instrumented);
        // Ahead of the instrumentation's own close listener, which reads the status for its metric.
        ctx.res.prependListener("close", () => {
          if (!ctx.res.headersSent) ctx.res.statusCode = CLIENT_CLOSED_REQUEST;
        });
        try {
          await next();
        } finally {
          describeServerSpan(instrumented, ctx, failures.get(ctx));
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
    routeMatched(ctx, next) {
      const metadata = getRPCMetadata(context.active());
      const route = matchedRoute(ctx);
      if (metadata?.type === RPCType.HTTP && route) metadata.route = route;
      return next();
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
