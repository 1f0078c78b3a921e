import { setTimeout as sleep } from "node:timers/promises";
import type { Consumer, ConsumerInfo, JetStreamClient, JetStreamManager, StreamInfo } from "nats";
import type { Logger } from "../logger.js";
import { consumerInfoOrNull, reconcileConsumer, recreateConsumer, type ConsumerSettings } from "./consumer.js";
import { ensureStream, isStreamNotFound, type StreamSettings } from "./stream.js";
import type { Recovery } from "./subscription.js";

export interface ConsumerKeeperOptions {
  jsm: JetStreamManager;
  js: JetStreamClient;
  /** The stream as the bus ensured it at start-up. */
  stream: StreamSettings;
  /** The consumer as the subscription asked for it. */
  consumer: ConsumerSettings;
  /** The subscription's consumer name, for logs. */
  label: string;
  /** The consumer as read back from the server once the subscription had ensured it. */
  startInfo: ConsumerInfo;
  /** `created` of the stream the subscription started on: tells a re-created stream from the same one. */
  streamCreated: string;
  /** How long after a settled message the consumer's ack floor is read again. */
  refreshMs: number;
  /** How long a stream found missing is left alone before it is re-created. */
  streamRecreateDelayMs: number;
  logger: Logger;
}

/**
 * The highest stream sequence at or below which everything this consumer was
 * given is settled (acked or terminated). A consumer with nothing outstanding
 * (also a fresh one, whose `delivered` is where it starts) is settled up to what
 * it delivered; otherwise the server's ack floor says it.
 */
export function ackFloorOf(info: ConsumerInfo): number {
  if (info.num_ack_pending === 0 && info.ack_floor.consumer_seq === info.delivered.consumer_seq) return info.delivered.stream_seq;
  return info.ack_floor.stream_seq;
}

/**
 * Keeps what a subscription consumes from in existence: `restore()` re-creates
 * the stream (with the bus's start-up settings) when it is gone, then the durable
 * consumer (with its start-up configuration) when it is gone, and hands back a
 * fresh source to consume from.
 *
 * Where a re-created consumer starts. Not `all`: that would re-deliver the whole
 * retained stream (7 days by default); the inbox would dedupe it, but only after
 * reading all of it. Not this subscription's own last ack + 1 either: replicas
 * share the durable, and another replica may still hold an earlier event (in
 * flight, or waiting out a retry back-off) when the consumer vanishes; if this
 * replica wins the race to re-create, that event would never come back. So it
 * starts right after the consumer's ack floor as the server last reported it
 * (everything at or below it settled, by whichever replica): read at subscribe and
 * again `refreshMs` after messages settle. Sequences only grow within one stream,
 * so any replica's last reading is safe; at most the events settled since that
 * reading are delivered again (the inbox dedupes them). A stream that was
 * re-created meanwhile (by us or anyone) starts over at sequence 1 and holds only
 * events published since, none of which was seen here: then `all`.
 */
export function keepConsumer(o: ConsumerKeeperOptions): Recovery {
  const { jsm, logger, label } = o;
  const { stream: streamName, durable } = o.consumer;
  let floor = ackFloorOf(o.startInfo);
  let incarnation = o.streamCreated;
  // Bumped when the stream turns out to be a new one: a floor read before belongs to the old one.
  let epoch = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  async function refresh(): Promise<void> {
    const at = epoch;
    try {
      const info = await jsm.consumers.info(streamName, durable);
      if (at === epoch) floor = Math.max(floor, ackFloorOf(info));
    } catch {
      // Gone or unreachable: the last reading stands (restore() deals with a missing consumer).
    }
  }

  const streamInfo = () =>
    jsm.streams.info(streamName).catch((err: unknown) => {
      if (isStreamNotFound(err)) return null;
      throw err;
    });

  async function currentStream(signal: AbortSignal): Promise<StreamInfo> {
    const info = await streamInfo();
    if (info) return info;
    // Not at once. The consumers of a stream being deleted hear of it (and the stream is
    // already gone from the API) before the server has removed its files; on 2.9 servers a
    // stream re-created in that moment loses its files to the old one's removal ("error
    // creating store for consumer", or messages that can never be read). Waiting also lets
    // an operator who deletes and re-adds the stream (new settings) finish first.
    await sleep(o.streamRecreateDelayMs, undefined, { signal });
    const meanwhile = await streamInfo();
    if (meanwhile) return meanwhile;
    const created = await ensureStream(jsm, o.stream);
    logger.warn({ consumer: label, stream: streamName }, "JetStream stream was gone: re-created it with its start-up configuration");
    return created;
  }

  return {
    settled() {
      if (closed || timer) return;
      timer = setTimeout(() => void refresh().finally(() => (timer = undefined)), o.refreshMs);
      timer.unref();
    },

    async restore(signal: AbortSignal): Promise<Consumer> {
      const stream = await currentStream(signal);
      if (stream.created !== incarnation) {
        incarnation = stream.created;
        floor = 0;
        epoch++;
      }
      const existing = await consumerInfoOrNull(jsm, streamName, durable);
      if (existing) {
        await reconcileConsumer(jsm, o.consumer, existing, logger);
        logger.info({ consumer: label, stream: streamName, durable }, "JetStream consumer exists (re-created by another subscriber, or never gone): resuming");
      } else {
        const fromSeq = floor > 0 ? floor + 1 : undefined;
        const outcome = await recreateConsumer(jsm, o.consumer, o.startInfo.config, fromSeq, logger);
        logger.warn(
          { consumer: label, stream: streamName, durable, deliverFrom: fromSeq ?? "all" },
          outcome === "created"
            ? "JetStream consumer was gone: re-created it with its start-up configuration; resuming"
            : "JetStream consumer was gone and another subscriber re-created it meanwhile; resuming",
        );
      }
      return o.js.consumers.get(streamName, durable);
    },

    close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
