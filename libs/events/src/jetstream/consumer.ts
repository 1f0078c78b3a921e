import { AckPolicy, DeliverPolicy, nanos, type ConsumerConfig, type JetStreamManager, type NatsError } from "nats";
import type { Logger } from "../logger.js";
import { collapsePatterns, samePatterns, subjectFor } from "../subjects.js";

/** NATS consumer names cannot contain `.`, `*`, `>`, whitespace or path separators. */
export function durableName(consumer: string): string {
  if (!consumer) throw new Error("consumer name must not be empty");
  return consumer.replace(/[.*>\s/\\]/g, "_");
}

/** Multiple filter subjects on one consumer arrived in nats-server 2.10. */
export function supportsMultiFilter(serverVersion: string | undefined): boolean {
  const [major = 0, minor = 0] = (serverVersion ?? "0.0").split(".").map((n) => Number.parseInt(n, 10));
  return major > 2 || (major === 2 && minor >= 10);
}

/**
 * Server-side filter for the given patterns. Older servers take one filter
 * only, so several patterns fall back to the whole prefix and the subscriber
 * filters (and acks the rest) client-side.
 */
export function filterFor(prefix: string, types: string[], multiFilter: boolean): Pick<ConsumerConfig, "filter_subject" | "filter_subjects"> {
  const patterns = collapsePatterns(types);
  if (patterns.length === 1) return { filter_subject: subjectFor(prefix, patterns[0]) };
  if (multiFilter) return { filter_subjects: patterns.map((p) => subjectFor(prefix, p)) };
  return { filter_subject: `${prefix}.>` };
}

export interface ConsumerSettings {
  stream: string;
  durable: string;
  filter: Pick<ConsumerConfig, "filter_subject" | "filter_subjects">;
  ackWaitMs: number;
  startFrom: "new" | "all";
}

const CONSUMER_NOT_FOUND = 10014;

/**
 * Creates the durable pull consumer or updates its filter. `max_deliver` is
 * unlimited on the server on purpose: the subscriber enforces maxDeliver
 * itself so the last failure is always dead-lettered, never dropped silently.
 */
export async function ensureConsumer(jsm: JetStreamManager, s: ConsumerSettings, logger: Logger): Promise<void> {
  const existing = await jsm.consumers.info(s.stream, s.durable).catch((err: NatsError) => {
    if (err.api_error?.err_code === CONSUMER_NOT_FOUND) return null;
    throw err;
  });
  // Both keys always present: update() merges into the current config, so a
  // switch between single and multi filter must clear the other key.
  const filter = { filter_subject: s.filter.filter_subject, filter_subjects: s.filter.filter_subjects };
  if (!existing) {
    try {
      await jsm.consumers.add(s.stream, {
        durable_name: s.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: s.startFrom === "all" ? DeliverPolicy.All : DeliverPolicy.New,
        ack_wait: nanos(s.ackWaitMs),
        max_deliver: -1,
        ...filter,
      });
      return;
    } catch (err) {
      // Lost a creation race with another subscriber; fall through to reconcile.
      logger.debug({ err, consumer: s.durable }, "consumer add failed; reconciling");
    }
  }
  const info = existing ?? (await jsm.consumers.info(s.stream, s.durable));
  const sameFilter =
    (info.config.filter_subject || undefined) === filter.filter_subject &&
    samePatterns(info.config.filter_subjects ?? [], filter.filter_subjects ?? []);
  const sameAckWait = info.config.ack_wait === nanos(s.ackWaitMs);
  if (sameFilter && sameAckWait) return;
  if (!sameFilter) {
    logger.warn({ consumer: s.durable, from: info.config, to: s.filter }, "updating consumer filter (last subscribe wins)");
  }
  await jsm.consumers.update(s.stream, s.durable, { ack_wait: nanos(s.ackWaitMs), ...filter });
}

