import type { Consumer, ConsumerMessages, JsMsg } from "nats";
import type { Subscription } from "../bus.js";
import type { Logger } from "../logger.js";

/** Brings back what a subscription consumes from when it went missing (see heal.ts). */
export interface Recovery {
  /**
   * Re-creates the stream and/or the durable consumer as needed; resolves to a source to
   * consume from. `signal` aborts when the subscription stops.
   */
  restore(signal: AbortSignal): Promise<Consumer>;
  /** This subscription settled a message (the consumer's ack floor may have moved). */
  settled(): void;
  /** The subscription stopped. */
  close(): void;
}

export interface RecoveryBackoff {
  /** Delay after the first failed attempt; doubled after each further one. */
  minMs: number;
  /** Upper bound of the delay. */
  maxMs: number;
}

export interface PullLoopOptions {
  consumer: string;
  source: Consumer;
  concurrency: number;
  /** The consumer's ack wait: messages held by this client are kept alive at half of it. */
  ackWaitMs: number;
  /** How long one pull request lasts; the server heartbeats it at half of that. Default 30 s. */
  pullExpiresMs?: number;
  handle: (msg: JsMsg) => Promise<void>;
  logger: Logger;
  onStopped: () => void;
  /**
   * When consuming fails (the consumer or its stream was deleted, JetStream did
   * not answer), the loop restores what is missing and resumes, with `backoff`
   * between failed attempts. Without it the subscription ends there (logged).
   */
  recovery?: Recovery;
  backoff?: RecoveryBackoff;
  /** The connection is closed for good: nothing can be restored over it. */
  connectionClosed?: () => boolean;
}

const DEFAULT_BACKOFF: RecoveryBackoff = { minMs: 250, maxMs: 30_000 };

/** How often a held message is reported as in progress (`+WPI`), given the ack wait. */
function keepAliveInterval(ackWaitMs: number): number {
  return Math.max(Math.floor(ackWaitMs / 2), 500);
}

/** Delay before recovery attempt `n` (1-based; the first is immediate): doubling, capped, ±20 % jitter so replicas spread. */
export function recoveryDelay(n: number, b: RecoveryBackoff): number {
  if (n <= 1) return 0;
  const base = Math.min(b.maxMs, b.minMs * 2 ** Math.min(n - 2, 30));
  return Math.min(b.maxMs, Math.round(base * (0.8 + Math.random() * 0.4)));
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
 *
 * A consumer deleted under the loop (by an operator, or with its stream) ends
 * the pull at once (`abort_on_missing_resource`: nats.js would otherwise retry
 * the missing consumer forever and this subscription would hear nothing). The
 * loop then has `recovery` re-create it and consumes again. Messages already
 * received still run; their acks went to the old consumer, so the new one may
 * deliver them again (at least once; the inbox dedupes).
 */
export async function startPullLoop(o: PullLoopOptions): Promise<Subscription> {
  const inflight = new Set<Promise<void>>();
  const waiting: Array<{ msg: JsMsg; keepAlive: NodeJS.Timeout }> = [];
  const every = keepAliveInterval(o.ackWaitMs);
  const backoff = o.backoff ?? DEFAULT_BACKOFF;
  let stopping = false;
  let wake: (() => void) | undefined;
  const stopSignal = new AbortController();
  // Recovery attempts since messages last flowed; drives the back-off.
  let attempts = 0;

  const open = async (source: Consumer): Promise<ConsumerMessages> => {
    const it = await source.consume({
      max_messages: o.concurrency,
      ...(o.pullExpiresMs === undefined ? {} : { expires: o.pullExpiresMs }),
      abort_on_missing_resource: o.recovery !== undefined,
    });
    watchStatus(it, o);
    return it;
  };
  let messages = await open(o.source);

  const pump = () => {
    while (!stopping && inflight.size < o.concurrency && waiting.length > 0) {
      const { msg, keepAlive } = waiting.shift()!;
      const task: Promise<void> = o
        .handle(msg)
        .then(() => o.recovery?.settled())
        .catch((err) => o.logger.error({ err, consumer: o.consumer, seq: msg.seq }, "failed to settle message"))
        .finally(() => {
          clearInterval(keepAlive);
          inflight.delete(task);
          pump();
        });
      inflight.add(task);
    }
  };

  const consume = async (it: ConsumerMessages) => {
    for await (const msg of it) {
      // Already buffered when stop() was called: hand back for immediate redelivery.
      if (stopping) {
        msg.nak();
        continue;
      }
      attempts = 0;
      const keepAlive = setInterval(() => msg.working(), every);
      waiting.push({ msg, keepAlive });
      pump();
      // Backpressure: the next pull goes out only when the iterator is asked again, so wait
      // for a free slot first. At most one message is held ahead of the handlers (kept alive
      // above); the rest stay with the server, for whichever subscriber is free.
      while (waiting.length > 0 && !stopping) await Promise.race(inflight);
    }
  };

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    }).finally(() => (wake = undefined));

  /** Restores the consumer and opens a new pull, retrying with back-off; undefined once stopping. */
  const recover = async (recovery: Recovery): Promise<ConsumerMessages | undefined> => {
    for (;;) {
      attempts++;
      const delay = recoveryDelay(attempts, backoff);
      if (delay > 0) await pause(delay);
      if (stopping) return undefined;
      if (o.connectionClosed?.()) {
        o.logger.error({ consumer: o.consumer }, "NATS connection closed: cannot re-create the JetStream consumer; this subscription receives no more events");
        return undefined;
      }
      try {
        const source = await recovery.restore(stopSignal.signal);
        if (stopping) return undefined;
        const it = await open(source);
        // stop() closed the pull it knew of while this one was being opened.
        if (stopping) await it.close().catch(() => undefined);
        return stopping ? undefined : it;
      } catch (err) {
        if (stopping) return undefined;
        o.logger.error(
          { err, consumer: o.consumer, attempt: attempts, retryInMs: recoveryDelay(attempts + 1, backoff) },
          "could not restore the JetStream consumer; retrying",
        );
      }
    }
  };

  const loop = (async () => {
    for (;;) {
      const openedAt = Date.now();
      let failure: unknown;
      let failed = false;
      try {
        await consume(messages);
      } catch (err) {
        failure = err;
        failed = true;
      }
      if (stopping) return;
      // Ended without an error: the connection is draining; nothing to recover.
      if (!failed || !o.recovery) {
        if (failed) o.logger.error({ err: failure, consumer: o.consumer }, "consume loop ended with an error");
        o.logger.error({ consumer: o.consumer }, "consume loop ended unexpectedly: this subscription receives no more events");
        return;
      }
      // A pull that lived long is a fresh incident: start the back-off over.
      if (Date.now() - openedAt > backoff.maxMs) attempts = 0;
      o.logger.warn({ err: failure, consumer: o.consumer }, "JetStream consumer unavailable (deleted, or its stream); restoring it");
      const next = await recover(o.recovery);
      if (!next) return;
      messages = next;
    }
  })()
    .catch((err) => o.logger.error({ err, consumer: o.consumer }, "consume loop ended with an error"))
    // A loop that ended for good (connection closed) leaves nothing for the ack-floor poll to keep.
    .finally(() => o.recovery?.close());

  let stopped: Promise<void> | undefined;
  return {
    consumer: o.consumer,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        wake?.();
        stopSignal.abort();
        o.recovery?.close();
        for (const { msg, keepAlive } of waiting.splice(0)) {
          clearInterval(keepAlive);
          msg.nak();
        }
        await messages.close().catch(() => undefined);
        await loop;
        await Promise.all(inflight);
        o.onStopped();
      })();
      return stopped;
    },
  };
}

function watchStatus(messages: ConsumerMessages, o: PullLoopOptions): void {
  void (async () => {
    for await (const s of await messages.status()) {
      if (s.type === "heartbeats_missed") {
        o.logger.warn({ consumer: o.consumer, data: s.data }, "JetStream pull heartbeats missed; re-pulling");
      } else if (!o.recovery && (s.type === "consumer_deleted" || s.type === "consumer_not_found" || s.type === "stream_not_found")) {
        // nats.js keeps retrying on its own after these; without a log, a consumer deleted
        // under a running service would look like a quiet one.
        o.logger.error({ consumer: o.consumer, status: s.type, data: s.data }, "JetStream consumer is gone: this subscription receives nothing until it is re-created (subscribe again)");
      }
    }
  })().catch(() => undefined);
}
