import { randomUUID } from "node:crypto";
import { z } from "zod";
import { assertEventType } from "./subjects.js";

/** The wire format of every event, identical on both adapters. */
export interface EventEnvelope<T = unknown> {
  /** Unique id; also the dedupe key (`Nats-Msg-Id`) and the inbox key. */
  id: string;
  /** Dotted event type, e.g. `customer.created`. */
  type: string;
  /** Owning customer (tenant); null for platform-level events. */
  customerId: number | null;
  /** Unix epoch milliseconds at publish time. */
  time: number;
  /** W3C traceparent of the producer span, when tracing is active. */
  traceparent?: string;
  /**
   * The producer's outbox sequence, for events published by an outbox relay. Among one producer's
   * events about one thing, a later change has a higher seq: a consumer that keeps state can tell
   * a redelivered older event (overtaken while it was retried) from a newer one.
   */
  seq?: number;
  data: T;
}

export interface PublishInput<T = unknown> {
  type: string;
  customerId: number | null;
  data: T;
  /** Supply a deterministic id to make re-publishing (e.g. from an outbox) deduplicate. */
  id?: string;
  /** The producer's outbox sequence (set by the outbox relay). */
  seq?: number;
}

const envelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  customerId: z.number().int().nullable(),
  time: z.number(),
  traceparent: z.string().optional(),
  seq: z.number().int().optional(),
  data: z.unknown(),
});

export function buildEnvelope<T>(input: PublishInput<T>, traceparent: string | undefined, now = Date.now()): EventEnvelope<T> {
  assertEventType(input.type);
  if (input.id !== undefined && input.id.length === 0) throw new Error("event id must not be empty");
  const envelope: EventEnvelope<T> = {
    id: input.id ?? randomUUID(),
    type: input.type,
    customerId: input.customerId,
    time: now,
    data: input.data,
  };
  if (traceparent) envelope.traceparent = traceparent;
  if (input.seq !== undefined) envelope.seq = input.seq;
  return envelope;
}

/** Validates untrusted bytes from the wire; throws on anything that is not an envelope. */
export function parseEnvelope(raw: string): EventEnvelope {
  return envelopeSchema.parse(JSON.parse(raw)) as EventEnvelope;
}
