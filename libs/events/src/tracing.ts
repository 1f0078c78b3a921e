import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from "@opentelemetry/api";
import type { Span, Tracer } from "@opentelemetry/api";

/** W3C propagation fields (`traceparent`, `tracestate`) as they travel in headers. */
export type TraceCarrier = Record<string, string>;

/** Resolved lazily by the OTel API, so an SDK registered after bus creation still applies. */
export function defaultTracer(): Tracer {
  return trace.getTracer("@signage/events");
}

interface SpanInfo {
  system: string;
  type: string;
  id: string;
}

/**
 * Runs `fn` in a PRODUCER span and hands it the carrier injected from that span,
 * so the consumer's span becomes a child of the publish. Without a registered
 * SDK/propagator everything here is a no-op and the carrier stays empty.
 */
export function withProducerSpan<R>(tracer: Tracer, info: SpanInfo, fn: (carrier: TraceCarrier) => Promise<R>): Promise<R> {
  const attributes = {
    "messaging.system": info.system,
    "messaging.operation.type": "send",
    "messaging.destination.name": info.type,
    "messaging.message.id": info.id,
  };
  return tracer.startActiveSpan(`publish ${info.type}`, { kind: SpanKind.PRODUCER, attributes }, (span) =>
    settle(span, () => {
      const carrier: TraceCarrier = {};
      propagation.inject(context.active(), carrier);
      return fn(carrier);
    }),
  );
}

/**
 * Runs `fn` in a CONSUMER span parented on the extracted producer context.
 * Extraction starts from ROOT so the ambient context of the consume loop
 * (e.g. whatever was active when `subscribe` was called) never leaks in.
 */
export function withConsumerSpan<R>(
  tracer: Tracer,
  carrier: TraceCarrier,
  info: SpanInfo & { consumer: string; attempt: number },
  fn: () => Promise<R>,
): Promise<R> {
  const parent = propagation.extract(ROOT_CONTEXT, carrier);
  const attributes = {
    "messaging.system": info.system,
    "messaging.operation.type": "process",
    "messaging.destination.name": info.type,
    "messaging.message.id": info.id,
    "messaging.consumer.group.name": info.consumer,
    "messaging.message.delivery_attempt": info.attempt,
  };
  return context.with(parent, () =>
    tracer.startActiveSpan(`process ${info.type}`, { kind: SpanKind.CONSUMER, attributes }, (span) => settle(span, fn)),
  );
}

async function settle<R>(span: Span, fn: () => Promise<R>): Promise<R> {
  try {
    return await fn();
  } catch (err) {
    span.recordException(err instanceof Error ? err : String(err));
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
    throw err;
  } finally {
    span.end();
  }
}
