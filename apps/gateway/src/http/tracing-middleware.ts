// One SERVER span per REST request, named after the route template, so each
// call is one trace from the edge through the services (and NATS) even when
// HTTP auto-instrumentation is off. An incoming traceparent is continued.
import { context, propagation, SpanKind, SpanStatusCode, trace, type Tracer } from "@opentelemetry/api";
import type { Middleware } from "koa";

export function tracingMiddleware(tracer: Tracer): Middleware {
  return async (ctx, next) => {
    const parent = propagation.extract(context.active(), ctx.headers);
    const span = tracer.startSpan(`HTTP ${ctx.method}`, { kind: SpanKind.SERVER, attributes: { "http.request.method": ctx.method, "url.path": ctx.path } }, parent);
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      const route = (ctx as { _matchedRoute?: string })._matchedRoute;
      if (route) span.updateName(`HTTP ${ctx.method} ${route}`);
      span.setAttribute("http.response.status_code", ctx.status);
      if (route) span.setAttribute("http.route", String(route));
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
