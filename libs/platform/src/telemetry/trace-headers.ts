import { context, propagation, type Context } from "@opentelemetry/api";

/**
 * The active trace context as plain headers (`traceparent`, and `tracestate`
 * / `baggage` when present), for carriers other than Connect's Headers, e.g.
 * NATS message headers in the events lib: copy each entry onto the message.
 */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/**
 * The context a consumer should run in for a message carrying those headers;
 * `get` reads one header (e.g. `(name) => msg.headers?.get(name) || undefined`).
 * Use with `context.with(ctx, handler)` or as the parent of a CONSUMER span.
 */
export function contextFromHeaders(get: (name: string) => string | undefined, base: Context = context.active()): Context {
  return propagation.extract(base, null, {
    keys: () => [],
    get: (_carrier, key) => get(key),
  });
}
