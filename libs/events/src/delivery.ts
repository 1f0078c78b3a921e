import type { Tracer } from "@opentelemetry/api";
import type { EventHandler } from "./bus.js";
import type { EventEnvelope } from "./envelope.js";
import type { Logger } from "./logger.js";
import { resolveRetryDelay, type RetryDelay } from "./retry.js";
import { withConsumerSpan, type TraceCarrier } from "./tracing.js";

export type DeliveryOutcome = { kind: "ack" } | { kind: "retry"; delayMs: number } | { kind: "dead"; error: unknown };

export interface DeliveryPolicy {
  system: string;
  consumer: string;
  tracer: Tracer;
  logger: Logger;
  maxDeliver: number;
  retryDelay: RetryDelay | undefined;
}

/**
 * One attempt at handling an event, shared by both adapters so retry and
 * dead-letter decisions are identical; the adapter applies the outcome
 * (ack / nak with delay / dead-letter).
 */
export async function deliver(
  policy: DeliveryPolicy,
  handler: EventHandler<any>,
  event: EventEnvelope,
  attempt: number,
  carrier: TraceCarrier,
): Promise<DeliveryOutcome> {
  const info = { system: policy.system, type: event.type, id: event.id, consumer: policy.consumer, attempt };
  try {
    await withConsumerSpan(policy.tracer, carrier, info, () => handler(event));
    return { kind: "ack" };
  } catch (error) {
    if (attempt >= policy.maxDeliver) return { kind: "dead", error };
    const delayMs = resolveRetryDelay(policy.retryDelay, attempt);
    policy.logger.warn(
      { err: error, consumer: policy.consumer, eventId: event.id, eventType: event.type, attempt, delayMs },
      "event handler failed; will retry",
    );
    return { kind: "retry", delayMs };
  }
}

/** Carrier for the consumer side; the envelope copy covers producers that sent no headers. */
export function carrierFromEnvelope(event: EventEnvelope, headers?: TraceCarrier): TraceCarrier {
  if (headers?.traceparent) return headers;
  return event.traceparent ? { traceparent: event.traceparent } : {};
}
