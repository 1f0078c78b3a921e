import type { Consumer, JsMsg } from "nats";
import type { Subscription } from "../bus.js";
import type { Logger } from "../logger.js";

export interface PullLoopOptions {
  consumer: string;
  source: Consumer;
  concurrency: number;
  handle: (msg: JsMsg) => Promise<void>;
  logger: Logger;
  onStopped: () => void;
}

/**
 * Pulls from a durable consumer and runs up to `concurrency` messages at once.
 * The pull buffer is kept as small as the concurrency so that subscribers
 * sharing a consumer split the work instead of one hoarding a batch.
 */
export async function startPullLoop(o: PullLoopOptions): Promise<Subscription> {
  const messages = await o.source.consume({ max_messages: o.concurrency });
  const inflight = new Set<Promise<void>>();
  let stopping = false;

  const loop = (async () => {
    for await (const msg of messages) {
      while (inflight.size >= o.concurrency) await Promise.race(inflight);
      // Already buffered when stop() was called: hand back for immediate redelivery.
      if (stopping) {
        msg.nak();
        continue;
      }
      const task = o
        .handle(msg)
        .catch((err) => o.logger.error({ err, consumer: o.consumer, seq: msg.seq }, "failed to settle message"))
        .finally(() => inflight.delete(task));
      inflight.add(task);
    }
  })().catch((err) => o.logger.error({ err, consumer: o.consumer }, "consume loop ended with an error"));

  let stopped: Promise<void> | undefined;
  return {
    consumer: o.consumer,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        await messages.close();
        await loop;
        await Promise.all(inflight);
        o.onStopped();
      })();
      return stopped;
    },
  };
}
