import { setTimeout as sleep } from "node:timers/promises";
import type { Consumer, ConsumerInfo, JetStreamClient, JetStreamManager, NatsError, StreamInfo } from "nats";
import type { Logger } from "../logger.js";
import { ackFloorOf, consumerInfoOrNull, recreateConsumer, widenConsumer, type ConsumerSettings } from "./consumer.js";
import { ensureStream, isStreamNotFound, type StreamSettings } from "./stream.js";
import type { Recovery } from "./subscription.js";

export { ackFloorOf };

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
  /** How often the ack floor is read again in any case (also while this replica receives nothing). */
  pollMs: number;
  /** How long a stream found missing is left alone before it is re-created. */
  streamRecreateDelayMs: number;
  /** How long a consumer found missing is left alone before it is re-created (0: at once). */
  consumerRecreateDelayMs: number;
  logger: Logger;
}

const NO_MESSAGE_FOUND = 10037;
/** How often a subscription waiting to re-create a missing stream looks whether someone else added it. */
const STREAM_LOOK_MS = 250;

/** A message at or below the floor, to recognise it (or not) in the stream later. */
interface FloorMark {
  seq: number;
  /** `Nats-Msg-Id` (the bus sets it on every event), else subject and store time. */
  id: string;
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
 * (everything at or below it settled, by whichever replica): read at subscribe,
 * `refreshMs` after messages settle, every `pollMs` in any case (a replica that
 * receives nothing must not keep the floor it read at subscribe: it may win the
 * race) and whenever it resumes on an existing consumer. Sequences only grow within
 * one stream, so any replica's last reading is safe; at most the events settled
 * since that reading are delivered again (the inbox dedupes them). Nothing below
 * the stream's first sequence can come back, so it starts there at the earliest:
 * never `all` on a stream it already knew.
 *
 * A stream that is new to this subscription holds only events none of which was
 * seen here (as far as its floor goes): then `all`. New means re-created meanwhile
 * (another `created`, by us or anyone), or another history under the same
 * `created` (restored from a backup: its sequences went back, and the ones after
 * the backup are other events than those the floor was read at): the floor is
 * above its last sequence, or the message the floor was read at is another one now.
 */
export async function keepConsumer(o: ConsumerKeeperOptions): Promise<Recovery> {
  const { jsm, logger, label } = o;
  const { stream: streamName, durable } = o.consumer;
  let floor = ackFloorOf(o.startInfo);
  let incarnation = o.streamCreated;
  let mark: FloorMark | undefined;
  // The floor a mark was last looked up for (also when the stream had no message there).
  let markedFloor = 0;
  // Bumped when the stream turns out to be a new one: a floor read before belongs to the old one.
  let epoch = 0;
  let timer: NodeJS.Timeout | undefined;
  let refreshing: Promise<void> | undefined;
  let closed = false;

  /** Identity of the message at `seq`, null when the stream has none there. */
  async function messageAt(seq: number): Promise<string | null> {
    try {
      const m = await jsm.streams.getMessage(streamName, { seq });
      return m.header?.get("Nats-Msg-Id") || `${m.subject}@${m.time.toISOString()}`;
    } catch (err) {
      if ((err as NatsError | undefined)?.api_error?.err_code === NO_MESSAGE_FOUND || isStreamNotFound(err)) return null;
      throw err;
    }
  }

  /** Remembers which message the floor is at (looked up once per floor; a deleted one leaves the last mark). */
  async function markFloor(at: number): Promise<void> {
    const seq = floor;
    if (seq === 0 || seq === markedFloor) return;
    const id = await messageAt(seq);
    if (at !== epoch) return;
    markedFloor = seq;
    if (id !== null) mark = { seq, id };
  }

  /** Takes a reading of the consumer's ack floor (only ever raises it). */
  function takeFloor(info: ConsumerInfo, at: number): void {
    if (at === epoch) floor = Math.max(floor, ackFloorOf(info));
  }

  function refresh(): Promise<void> {
    refreshing ??= (async () => {
      const at = epoch;
      try {
        takeFloor(await jsm.consumers.info(streamName, durable), at);
        await markFloor(at);
      } catch {
        // Gone or unreachable: the last reading stands (restore() deals with a missing consumer).
      }
    })().finally(() => (refreshing = undefined));
    return refreshing;
  }

  /** The stream holds another history than the one the floor was read in (same `created`). */
  async function otherHistory(s: StreamInfo): Promise<boolean> {
    if (floor > s.state.last_seq) return true;
    if (!mark || mark.seq < s.state.first_seq) return false;
    const now = await messageAt(mark.seq);
    return now !== null && now !== mark.id;
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
    // Looked for meanwhile, so that consuming resumes as soon as someone else adds it.
    const deadline = Date.now() + o.streamRecreateDelayMs;
    for (let left = o.streamRecreateDelayMs; left > 0; left = deadline - Date.now()) {
      await sleep(Math.min(left, STREAM_LOOK_MS), undefined, { signal });
      const meanwhile = await streamInfo();
      if (meanwhile) return meanwhile;
    }
    const created = await ensureStream(jsm, o.stream, logger);
    logger.warn({ consumer: label, stream: streamName }, "JetStream stream was gone: re-created it with its start-up configuration");
    return created;
  }

  await markFloor(epoch).catch(() => undefined);
  const poll = setInterval(() => void refresh(), o.pollMs);
  poll.unref();

  return {
    settled() {
      if (closed || timer) return;
      timer = setTimeout(() => void refresh().finally(() => (timer = undefined)), o.refreshMs);
      timer.unref();
    },

    async restore(signal: AbortSignal): Promise<Consumer> {
      const stream = await currentStream(signal);
      let isNew = stream.created !== incarnation;
      if (!isNew && (await otherHistory(stream))) {
        isNew = true;
        logger.warn(
          { consumer: label, stream: streamName, ackFloor: floor, firstSeq: stream.state.first_seq, lastSeq: stream.state.last_seq },
          "JetStream stream holds another history than this subscription read its ack floor in (restored from a backup?): treating it as a new stream",
        );
      }
      if (isNew) {
        incarnation = stream.created;
        floor = 0;
        mark = undefined;
        markedFloor = 0;
        epoch++;
      }
      const at = epoch;
      let existing = await consumerInfoOrNull(jsm, streamName, durable);
      if (!existing && o.consumerRecreateDelayMs > 0) {
        // A subscriber replacing the consumer (a filter change on an old server, see
        // changeConsumer) adds it again at once: re-created here first, with this
        // subscription's settings, it would undo that (and the two would take turns).
        await sleep(o.consumerRecreateDelayMs, undefined, { signal });
        existing = await consumerInfoOrNull(jsm, streamName, durable);
      }
      if (existing) {
        takeFloor(existing, at);
        await widenConsumer(jsm, o.consumer, existing, logger);
        logger.info({ consumer: label, stream: streamName, durable }, "JetStream consumer exists (re-created by another subscriber, or never gone): resuming");
      } else {
        // A stream new to us: all of it. Else right after the floor, but not before what the stream still holds.
        const fromSeq = isNew ? undefined : Math.max(floor + 1, stream.state.first_seq);
        const outcome = await recreateConsumer(jsm, o.consumer, o.startInfo.config, fromSeq, logger);
        logger.warn(
          { consumer: label, stream: streamName, durable, deliverFrom: fromSeq ?? "all" },
          outcome === "created"
            ? "JetStream consumer was gone: re-created it with its start-up configuration; resuming"
            : "JetStream consumer was gone and another subscriber re-created it meanwhile; resuming",
        );
      }
      await markFloor(at).catch(() => undefined);
      return o.js.consumers.get(streamName, durable);
    },

    close() {
      closed = true;
      clearTimeout(timer);
      clearInterval(poll);
      timer = undefined;
    },
  };
}
