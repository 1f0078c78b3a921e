import type { Interceptor } from "@connectrpc/connect";
import { SpanKind, context, isSpanContextValid, metrics, propagation, trace, type Context, type Meter, type Tracer } from "@opentelemetry/api";
import { suppressTracing } from "@opentelemetry/core";
import { headersGetter } from "./headers-carrier.js";
import { rpcSpanStart, traceStream } from "./rpc-span.js";
import { rpcCallEnd, rpcDurationHistogram, rpcMetricAttributes } from "./rpc-call.js";
import { isUntracedCall } from "./untraced-calls.js";

/**
 * SERVER span per incoming call, child of the caller's `traceparent`, and its
 * `rpc.server.call.duration` (rpc-call.ts; a no-op meter unless metrics are exported).
 * connect-node runs interceptors around the handler, so making the span
 * active around next() parents everything the handler does (pg, NATS, logs).
 * Put it first in the list so auth and other interceptors run inside the span.
 */
export function serverTracingInterceptor(tracer: Tracer, meter: Meter = metrics.getMeter("@signage/platform")): Interceptor {
  const duration = rpcDurationHistogram(meter, "server");
  return (next) => async (req) => {
    // Suppressed, not just skipped: whatever a health check does (a readiness query) starts no trace either.
    if (isUntracedCall(req)) return context.with(suppressTracing(context.active()), () => next(req));
    const parent = parentContext(req.header);
    const { name, attributes } = rpcSpanStart(req);
    const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
    const end = rpcCallEnd(span, "server", duration, rpcMetricAttributes(req, String(attributes["rpc.system"])), performance.now());
    const ctx = trace.setSpan(parent, span);
    try {
      const res = await context.with(ctx, () => next(req));
      if (res.stream) return { ...res, message: traceStream(res.message, ctx, end) };
      end();
      return res;
    } catch (err) {
      end(err);
      throw err;
    }
  };
}

/**
 * Normally the caller's `traceparent`. But when a local span is already
 * active, nest under it instead: over HTTP/1.1 the http auto-instrumentation
 * has made a SERVER span from that same header (extracting again would make
 * the two siblings), and in-memory calls run inside the caller's CLIENT span.
 */
function parentContext(header: Headers): Context {
  const active = context.active();
  const span = trace.getSpan(active);
  if (span && !span.spanContext().isRemote && isSpanContextValid(span.spanContext())) return active;
  return propagation.extract(active, header, headersGetter);
}
