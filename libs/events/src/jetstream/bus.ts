import { randomUUID } from "node:crypto";
import { connect, headers, type ConnectionOptions, type NatsConnection } from "nats";
import type { Tracer } from "@opentelemetry/api";
import type { EventBus, SubscribeOptions, Subscription } from "../bus.js";
import { deadLetter } from "../deadletter.js";
import { buildEnvelope, type EventEnvelope, type PublishInput } from "../envelope.js";
import { noopLogger, type Logger } from "../logger.js";
import { DEFAULT_MAX_DELIVER, maxDeliverOf, type RetryDelay } from "../retry.js";
import { assertTypePattern, subjectFor } from "../subjects.js";
import { defaultTracer, withProducerSpan } from "../tracing.js";
import { durableName, ensureConsumer, filterFor, supportsFilterUpdate, supportsMultiFilter, type ConsumerSettings } from "./consumer.js";
import { handleMessage } from "./handle-message.js";
import { keepConsumer } from "./heal.js";
import { ensureStream, type StreamSettings } from "./stream.js";
import { startPullLoop } from "./subscription.js";

export interface JetStreamBusOptions {
  servers: string | string[];
  /** Default `SIGNAGE_EVENTS`. */
  streamName?: string;
  /** Subject root; events go to `<prefix>.<type>`. Default `signage`. */
  subjectPrefix?: string;
  logger?: Logger;
  tracer?: Tracer;
  /** Redelivery delay after a failed attempt; number or per-attempt function. Default 1s doubling to 60s. */
  nakDelayMs?: RetryDelay;
  /** Attempts before an event is dead-lettered. Default 5. */
  maxDeliver?: number;
  /** Server waits this long for an ack before redelivering. Default 30s. */
  ackWaitMs?: number;
  /** `Nats-Msg-Id` dedupe window. Default 2 minutes. */
  duplicateWindowMs?: number;
  /** Stream retention. Default 7 days. */
  maxAgeMs?: number;
  /** Stream replicas (clustered NATS, 1 to 5): on creation, and applied to an existing stream. Unset: 1 on creation, an existing stream keeps its count. */
  replicas?: number;
  /** Connection name shown in NATS monitoring. */
  name?: string;
  /**
   * The stream is this bus's alone and goes with it: `close()` deletes it. For tests on a shared
   * NATS server, which would otherwise keep one stream per run. Never for a service's stream.
   */
  deleteStreamOnClose?: boolean;
  /**
   * Extra NATS connection options (e.g. `reconnectTimeWait`, TLS, credentials).
   * By default the bus reconnects forever (`maxReconnectAttempts: -1`): a
   * service must outlive a NATS outage of any length, not go deaf after the
   * client's default ten attempts (about 20 s).
   */
  connection?: Omit<ConnectionOptions, "servers" | "name">;
  /**
   * How long one pull request lasts; the server sends idle heartbeats at half of it,
   * and two missed ones make the client check that its consumer still exists.
   * Default 30 s (minimum 1 s).
   */
  pullExpiresMs?: number;
  /**
   * When a subscription's durable consumer (or the stream) is deleted under it, the
   * subscription re-creates it and resumes. Back-off between failed attempts: from
   * `minMs`, doubling, at most `maxMs`. Default 250 ms to 30 s; the first attempt is immediate.
   */
  recoveryBackoffMs?: { minMs?: number; maxMs?: number };
  /**
   * How long after a subscription settles messages it reads its consumer's ack floor
   * again: the position a re-created consumer resumes from. Lower means fewer events
   * delivered twice after a re-create, more consumer-info requests while busy. Default 5 s.
   */
  ackFloorRefreshMs?: number;
  /**
   * How often a subscription reads its consumer's ack floor in any case, also while it
   * receives nothing (a replica idle since subscribe would otherwise keep the floor it read
   * then, and re-create the consumer from there). Default 60 s.
   */
  ackFloorPollMs?: number;
  /**
   * A subscription that finds the stream deleted waits this long, then re-creates it
   * (with the settings above) unless someone else has meanwhile. Default 5 s: room for
   * the server to remove the old stream's files, and for an operator's scripted delete and
   * re-add to finish first (see the README for deleting or changing a stream on purpose).
   * Publishes fail meanwhile (the outbox retries them).
   */
  streamRecreateDelayMs?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A consumer found missing is re-created this long after (see heal.ts): a subscriber replacing it re-adds it within a round trip. */
const CONSUMER_RECREATE_DELAY_MS = 200;

/** Connects, ensures the stream exists, and returns a bus backed by JetStream. */
export async function createJetStreamBus(opts: JetStreamBusOptions): Promise<EventBus> {
  const streamName = opts.streamName ?? "SIGNAGE_EVENTS";
  const prefix = opts.subjectPrefix ?? "signage";
  const logger = opts.logger ?? noopLogger;
  const tracer = opts.tracer ?? defaultTracer();
  const maxDeliver = opts.maxDeliver ?? DEFAULT_MAX_DELIVER;
  const ackWaitMs = opts.ackWaitMs ?? 30_000;

  let closing: Promise<void> | undefined;
  let failedStart = false;
  const nc = await connect({ maxReconnectAttempts: -1, ...opts.connection, servers: opts.servers, name: opts.name });
  watchConnection(nc, logger, () => closing !== undefined || failedStart);
  const jsm = await nc.jetstreamManager().catch(closeAndThrow(nc, () => (failedStart = true)));
  // Kept: a subscription whose stream is deleted re-creates it with these.
  const streamSettings: StreamSettings = {
    name: streamName,
    subjectPrefix: prefix,
    duplicateWindowMs: opts.duplicateWindowMs ?? 2 * 60_000,
    maxAgeMs: opts.maxAgeMs ?? 7 * DAY_MS,
    replicas: opts.replicas,
  };
  await ensureStream(jsm, streamSettings, logger).catch(closeAndThrow(nc, () => (failedStart = true)));
  const js = nc.jetstream();
  const multiFilter = supportsMultiFilter(nc.info?.version);
  const filterUpdates = supportsFilterUpdate(nc.info?.version);
  const subscriptions = new Set<Subscription>();

  async function publish<T>(input: PublishInput<T>): Promise<EventEnvelope<T>> {
    if (closing) throw new Error("event bus is closed");
    return send(input);
  }

  // Also used for dead letters, which may still be emitted while close() waits on handlers.
  async function send<T>(input: PublishInput<T>): Promise<EventEnvelope<T>> {
    const id = input.id ?? randomUUID();
    return withProducerSpan(tracer, { system: "nats", type: input.type, id }, async (carrier) => {
      const envelope = buildEnvelope({ ...input, id }, carrier.traceparent);
      const h = headers();
      for (const [k, v] of Object.entries(carrier)) h.set(k, v);
      // msgID sets Nats-Msg-Id: the server drops repeats within duplicate_window.
      const ack = await js.publish(subjectFor(prefix, envelope.type), JSON.stringify(envelope), { msgID: id, headers: h });
      if (ack.duplicate) logger.debug({ eventId: id, eventType: envelope.type }, "duplicate publish dropped by server");
      return envelope;
    });
  }

  async function subscribe<T>(o: SubscribeOptions<T>): Promise<Subscription> {
    if (closing) throw new Error("event bus is closed");
    if (o.types.length === 0) throw new Error("subscribe needs at least one event type");
    o.types.forEach(assertTypePattern);
    const limit = maxDeliverOf(o, maxDeliver);
    const durable = durableName(o.consumer);
    const consumerSettings: ConsumerSettings = {
      stream: streamName,
      durable,
      filter: filterFor(prefix, o.types, multiFilter),
      ackWaitMs,
      startFrom: o.startFrom ?? "new",
      subjectPrefix: prefix,
      multiFilter,
      filterUpdates,
    };
    // Read before the consumer is ensured: a stream re-created after this reading is told apart later.
    const stream = await jsm.streams.info(streamName);
    await ensureConsumer(jsm, consumerSettings, logger);
    const source = await js.consumers.get(streamName, durable);
    const policy = { system: "nats", consumer: o.consumer, tracer, logger, maxDeliver: limit, retryDelay: opts.nakDelayMs };
    const ctx = {
      policy,
      types: o.types,
      handler: o.handler,
      deadLetter: (info: Parameters<typeof deadLetter>[2]) => deadLetter(send, logger, info),
    };
    const recovery = await keepConsumer({
      jsm,
      js,
      stream: streamSettings,
      consumer: consumerSettings,
      label: o.consumer,
      startInfo: await source.info(true),
      streamCreated: stream.created,
      refreshMs: opts.ackFloorRefreshMs ?? 5_000,
      pollMs: opts.ackFloorPollMs ?? 60_000,
      streamRecreateDelayMs: opts.streamRecreateDelayMs ?? 5_000,
      consumerRecreateDelayMs: CONSUMER_RECREATE_DELAY_MS,
      logger,
    });
    const sub = await startPullLoop({
      consumer: o.consumer,
      source,
      concurrency: Math.max(1, o.concurrency ?? 1),
      ackWaitMs,
      pullExpiresMs: opts.pullExpiresMs,
      handle: (msg) => handleMessage(ctx, msg),
      logger,
      onStopped: () => subscriptions.delete(sub),
      recovery,
      backoff: { minMs: opts.recoveryBackoffMs?.minMs ?? 250, maxMs: opts.recoveryBackoffMs?.maxMs ?? 30_000 },
      connectionClosed: () => nc.isClosed(),
    }).catch((err: unknown) => {
      // Its ack-floor poll must not outlive a subscription that never started.
      recovery.close();
      throw err;
    });
    subscriptions.add(sub);
    // Make sure the pull request reached the server before subscribe() resolves.
    await nc.flush();
    return sub;
  }

  return {
    publish,
    subscribe,
    close() {
      closing ??= (async () => {
        await Promise.all([...subscriptions].map((s) => s.stop()));
        if (opts.deleteStreamOnClose && !nc.isClosed()) await jsm.streams.delete(streamName).catch((err) => logger.warn({ err, streamName }, "could not delete the stream"));
        // drain() flushes pending acks before the socket closes.
        if (!nc.isClosed()) await nc.drain();
      })();
      return closing;
    },
  };
}

/** Logs outages and reconnects; a connection that closes on its own is an error (the bus is dead). */
function watchConnection(nc: NatsConnection, logger: Logger, closingByUs: () => boolean): void {
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === "disconnect") logger.warn({ server: s.data }, "NATS connection lost; reconnecting");
      else if (s.type === "reconnect") logger.info({ server: s.data }, "NATS connection re-established");
    }
  })().catch(() => undefined);
  void nc.closed().then((err) => {
    if (!closingByUs()) logger.error({ err }, "NATS connection closed: the event bus can no longer publish or receive");
  });
}

function closeAndThrow(nc: NatsConnection, onClose: () => void) {
  return async (err: unknown): Promise<never> => {
    onClose();
    await nc.close();
    throw err;
  };
}
