import type { Interceptor } from "@connectrpc/connect";
import { SpanKind, context, metrics, propagation, trace, type Meter, type Tracer } from "@opentelemetry/api";
import { headersSetter } from "./headers-carrier.js";
import { rpcSpanStart, traceStream } from "./rpc-span.js";
import { rpcCallEnd, rpcDurationHistogram, rpcMetricAttributes } from "./rpc-call.js";
import { isUntracedCall } from "./untraced-calls.js";

/**
 * CLIENT span per outgoing call (and its `rpc.client.call.duration`, rpc-call.ts), child of whatever is active (e.g. the
 * SERVER span of the call being handled), and `traceparent` written into
 * the request headers so the callee's server span joins the same trace.
 */
export function clientTracingInterceptor(tracer: Tracer, meter: Meter = metrics.getMeter("@signage/platform")): Interceptor {
  const duration = rpcDurationHistogram(meter, "client");
  return (next) => async (req) => {
    if (isUntracedCall(req)) return next(req);
    const { name, attributes } = rpcSpanStart(req);
    const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes: { ...attributes, ...peer(req.url) } });
    const end = rpcCallEnd(span, "client", duration, rpcMetricAttributes(req, String(attributes["rpc.system"])), performance.now());
    const ctx = trace.setSpan(context.active(), span);
    propagation.inject(ctx, req.header, headersSetter);
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

function peer(url: string): Record<string, string | number> {
  try {
    const { hostname, port, protocol } = new URL(url);
    return { "server.address": hostname, "server.port": Number(port) || (protocol === "https:" ? 443 : 80) };
  } catch {
    return {};
  }
}
