import type { Interceptor } from "@connectrpc/connect";
import { SpanKind, context, propagation, trace, type Tracer } from "@opentelemetry/api";
import { headersSetter } from "./headers-carrier.js";
import { endRpcSpanError, endRpcSpanOk, rpcSpanStart, traceStream } from "./rpc-span.js";
import { isUntracedCall } from "./untraced-calls.js";

/**
 * CLIENT span per outgoing call, child of whatever is active (e.g. the
 * SERVER span of the call being handled), and `traceparent` written into
 * the request headers so the callee's server span joins the same trace.
 */
export function clientTracingInterceptor(tracer: Tracer): Interceptor {
  return (next) => async (req) => {
    if (isUntracedCall(req)) return next(req);
    const { name, attributes } = rpcSpanStart(req);
    const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes: { ...attributes, ...peer(req.url) } });
    const ctx = trace.setSpan(context.active(), span);
    propagation.inject(ctx, req.header, headersSetter);
    try {
      const res = await context.with(ctx, () => next(req));
      if (res.stream) return { ...res, message: traceStream(res.message, span, ctx, "client") };
      endRpcSpanOk(span);
      return res;
    } catch (err) {
      endRpcSpanError(span, err, "client");
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
