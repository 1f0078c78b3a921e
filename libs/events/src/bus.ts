import type { EventEnvelope, PublishInput } from "./envelope.js";

export type EventHandler<T = unknown> = (event: EventEnvelope<T>) => Promise<void>;

export interface SubscribeOptions<T = unknown> {
  /**
   * Durable consumer name, e.g. `media.customer-created`. Subscriptions sharing a
   * name share the work (each event goes to one of them); distinct names each get
   * every event. The consumer outlives its subscriptions: events published while
   * nobody is subscribed are delivered on the next subscribe.
   */
  consumer: string;
  /** Event types or patterns (`customer.created`, `customer.*`, `media.>`). */
  types: string[];
  handler: EventHandler<T>;
  /** Handlers running in parallel for this subscription. Default 1. */
  concurrency?: number;
  /**
   * Where a consumer that does not exist yet starts: only events published from
   * now on ("new", default) or everything still retained ("all"). Ignored once
   * the consumer exists.
   */
  startFrom?: "new" | "all";
  /**
   * Attempts before this subscription's events are dead-lettered; default the bus's (5).
   * `Infinity`: never give up, retry with the bus's back-off until the handler succeeds. For
   * consumers keeping a replica, which no later event can repair once one of them is dropped
   * (a transient failure, a database that does not answer for longer than the few retries
   * take, must not cost an event).
   */
  maxDeliver?: number;
}

export interface Subscription {
  readonly consumer: string;
  /** Stops taking new events and waits for in-flight handlers to settle (ack/retry). */
  stop(): Promise<void>;
}

export interface EventBus {
  /** Resolves once the event is durably accepted (JetStream) or queued (in-process). */
  publish<T>(event: PublishInput<T>): Promise<EventEnvelope<T>>;
  subscribe<T = unknown>(opts: SubscribeOptions<T>): Promise<Subscription>;
  /** Stops all subscriptions (letting in-flight handlers finish), then releases resources. */
  close(): Promise<void>;
}

/** Payload of `deadletter.<type>` events emitted after `maxDeliver` failed attempts. */
export interface DeadLetterData {
  consumer: string;
  attempts: number;
  error: string;
  /** The original envelope, or null when the message could not be parsed. */
  event: EventEnvelope | null;
  /** Raw payload, only when it could not be parsed as an envelope. */
  raw?: string;
}
