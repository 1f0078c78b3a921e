import type { Consumer, JsMsg } from "nats";
import type { Subscription } from "../bus.js";
import type { Logger } from "../logger.js";

export interface PullLoopOptions {
  consumer: string;
  source: Consumer;
  concurrency: number;
  /** The consumer's ack wait: messages held by this client are kept alive at half of it. */
  ackWaitMs: number;
  handle: (msg: JsMsg) => Promise<void>;
  logger: Logger;
  onStopped: () => void;
}

/** How often a held message is reported as in progress (`+WPI`), given the ack wait. */
function keepAliveInterval(ackWaitMs: number): number {
  return Math.max(Math.floor(ackWaitMs / 2), 500);
}

/**
 * Pulls from a durable consumer and runs up to `concurrency` messages at once.
 * The pull buffer is kept as small as the concurrency so that subscribers
 * sharing a consumer split the work instead of one hoarding a batch.
 *
 * The client still receives a message or so ahead of a free slot (the pull is
 * refilled on receipt, not on completion; the loop waits for a slot before asking
 * for more). Every message is therefore kept alive (`working()`) from the moment
 * it arrives until it is settled: a message that waited behind a slow handler
 * must not outlive its ack wait,
 * or the server would redeliver it while this client still holds it (duplicate
 * processing, and one more delivery counted towards maxDeliver).
 */
export async function startPullLoop(o: PullLoopOptions): Promise<Subscription> {
  const messages = await o.source.consume({ max_messages: o.concurrency });
  const inflight = new Set<Promise<void>>();
  const waiting: Array<{ msg: JsMsg; keepAlive: NodeJS.Timeout }> = [];
  const every = keepAliveInterval(o.ackWaitMs);
  let stopping = false;

  const pump = () => {
    while (!stopping && inflight.size < o.concurrency && waiting.length > 0) {
      const { msg, keepAlive } = waiting.shift()!;
      const task: Promise<void> = o
        .handle(msg)
        .catch((err) => o.logger.error({ err, consumer: o.consumer, seq: msg.seq }, "failed to settle message"))
        .finally(() => {
          clearInterval(keepAlive);
          inflight.delete(task);
          pump();
        });
      inflight.add(task);
    }
  };

  const loop = (async () => {
    for await (const msg of messages) {
      // Already buffered when stop() was called: hand back for immediate redelivery.
      if (stopping) {
        msg.nak();
        continue;
      }
      const keepAlive = setInterval(() => msg.working(), every);
      waiting.push({ msg, keepAlive });
      pump();
      // Backpressure: the next pull goes out only when the iterator is asked again, so wait
      // for a free slot first. At most one message is held ahead of the handlers (kept alive
      // above); the rest stay with the server, for whichever subscriber is free.
      while (waiting.length > 0 && !stopping) await Promise.race(inflight);
    }
  })()
    .catch((err) => o.logger.error({ err, consumer: o.consumer }, "consume loop ended with an error"))
    .finally(() => {
      if (!stopping) o.logger.error({ consumer: o.consumer }, "consume loop ended unexpectedly: this subscription receives no more events");
    });

  // nats.js keeps retrying on its own after these; without a log, a consumer deleted
  // under a running service would look like a quiet one.
  void (async () => {
    for await (const s of await messages.status()) {
      if (s.type === "consumer_deleted" || s.type === "consumer_not_found" || s.type === "stream_not_found") {
        o.logger.error({ consumer: o.consumer, status: s.type, data: s.data }, "JetStream consumer is gone: this subscription receives nothing until it is re-created (subscribe again)");
      } else if (s.type === "heartbeats_missed") {
        o.logger.warn({ consumer: o.consumer, data: s.data }, "JetStream pull heartbeats missed; re-pulling");
      }
    }
  })().catch(() => undefined);

  let stopped: Promise<void> | undefined;
  return {
    consumer: o.consumer,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        for (const { msg, keepAlive } of waiting.splice(0)) {
          clearInterval(keepAlive);
          msg.nak();
        }
        await messages.close();
        await loop;
        await Promise.all(inflight);
        o.onStopped();
      })();
      return stopped;
    },
  };
}
