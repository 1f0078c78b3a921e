import { randomUUID } from "node:crypto";
import type { Tracer } from "@opentelemetry/api";
import type { EventBus, SubscribeOptions, Subscription } from "../bus.js";
import { deadLetter } from "../deadletter.js";
import { buildEnvelope, type EventEnvelope, type PublishInput } from "../envelope.js";
import { noopLogger, type Logger } from "../logger.js";
import { DEFAULT_MAX_DELIVER, maxDeliverOf, type RetryDelay } from "../retry.js";
import { assertTypePattern, matchesAny, samePatterns } from "../subjects.js";
import { defaultTracer, withProducerSpan } from "../tracing.js";
import { ConsumerGroup, type Delivery } from "./consumer-group.js";
import { DedupeWindow } from "./dedupe-window.js";

export interface InProcessBusOptions {
  logger?: Logger;
  tracer?: Tracer;
  /** Redelivery delay after a failed attempt. Default 100ms doubling to 5s. */
  nakDelayMs?: RetryDelay;
  /** Attempts before an event is dead-lettered. Default 5. */
  maxDeliver?: number;
  /** Same-id publishes within this window are dropped. Default 2 minutes. */
  dedupeWindowMs?: number;
  /** Recent events kept for consumers created with `startFrom: "all"`. Default 10 000. */
  retain?: number;
}

const inProcessRetryDelay = (attempt: number): number => Math.min(100 * 2 ** (attempt - 1), 5_000);

/**
 * Same contract as the JetStream bus, for the single-process embedded
 * composition. Nothing survives a restart: pending deliveries are dropped
 * (and logged) on close.
 */
export function createInProcessBus(opts: InProcessBusOptions = {}): EventBus {
  const logger = opts.logger ?? noopLogger;
  const tracer = opts.tracer ?? defaultTracer();
  const maxDeliver = opts.maxDeliver ?? DEFAULT_MAX_DELIVER;
  const retryDelay = opts.nakDelayMs ?? inProcessRetryDelay;
  const retain = opts.retain ?? 10_000;
  const dedupe = new DedupeWindow(opts.dedupeWindowMs ?? 2 * 60_000);
  const groups = new Map<string, ConsumerGroup>();
  const retained: Delivery[] = [];
  const subscriptions = new Set<Subscription>();
  let closing: Promise<void> | undefined;

  async function publish<T>(input: PublishInput<T>): Promise<EventEnvelope<T>> {
    if (closing) throw new Error("event bus is closed");
    return send(input);
  }

  async function send<T>(input: PublishInput<T>): Promise<EventEnvelope<T>> {
    const id = input.id ?? randomUUID();
    return withProducerSpan(tracer, { system: "in-process", type: input.type, id }, async (carrier) => {
      const envelope = buildEnvelope({ ...input, id }, carrier.traceparent);
      if (dedupe.isDuplicate(id)) {
        logger.debug({ eventId: id, eventType: envelope.type }, "duplicate publish dropped");
        return envelope;
      }
      const delivery = copyOf({ event: envelope, carrier, attempt: 1 });
      retained.push(delivery);
      if (retained.length > retain) retained.shift();
      for (const group of groups.values()) if (group.accepts(envelope.type)) group.enqueue(copyOf(delivery));
      return envelope;
    });
  }

  function groupFor<T>(o: SubscribeOptions<T>): ConsumerGroup {
    const existing = groups.get(o.consumer);
    if (existing) {
      if (!samePatterns(existing.patterns, o.types)) {
        logger.warn({ consumer: o.consumer, from: existing.patterns, to: o.types }, "updating consumer filter (last subscribe wins)");
        existing.patterns = [...o.types];
      }
      return existing;
    }
    const policy = { system: "in-process", consumer: o.consumer, tracer, logger, maxDeliver: maxDeliverOf(o, maxDeliver), retryDelay };
    const group = new ConsumerGroup([...o.types], policy, (info) => deadLetter(send, logger, info));
    groups.set(o.consumer, group);
    if (o.startFrom === "all") {
      for (const d of retained) if (matchesAny(o.types, d.event.type)) group.enqueue(copyOf(d));
    }
    return group;
  }

  return {
    publish,
    async subscribe<T>(o: SubscribeOptions<T>): Promise<Subscription> {
      if (closing) throw new Error("event bus is closed");
      if (!o.consumer) throw new Error("consumer name must not be empty");
      if (o.types.length === 0) throw new Error("subscribe needs at least one event type");
      o.types.forEach(assertTypePattern);
      const member = groupFor(o).join(o.handler, Math.max(1, o.concurrency ?? 1));
      const sub: Subscription = {
        consumer: o.consumer,
        stop: async () => {
          await member.stop();
          subscriptions.delete(sub);
        },
      };
      subscriptions.add(sub);
      return sub;
    },
    close() {
      closing ??= (async () => {
        await Promise.all([...subscriptions].map((s) => s.stop()));
        for (const [consumer, group] of groups) {
          const abandoned = group.shutdown();
          if (abandoned > 0) logger.warn({ consumer, abandoned }, "in-process bus closed with undelivered events");
        }
      })();
      return closing;
    },
  };
}


/** JSON round-trip: each consumer gets its own copy, exactly as it would off the wire. */
function copyOf(d: Delivery): Delivery {
  return { ...d, event: JSON.parse(JSON.stringify(d.event)) };
}
