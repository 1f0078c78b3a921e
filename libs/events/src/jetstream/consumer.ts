import { AckPolicy, DeliverPolicy, nanos, type ConsumerConfig, type ConsumerInfo, type JetStreamManager, type NatsError } from "nats";
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

export function isConsumerNotFound(err: unknown): boolean {
  return (err as NatsError | undefined)?.api_error?.err_code === CONSUMER_NOT_FOUND;
}

/** The consumer's info, or null when it does not exist (any other failure throws). */
export async function consumerInfoOrNull(jsm: JetStreamManager, stream: string, durable: string): Promise<ConsumerInfo | null> {
  return jsm.consumers.info(stream, durable).catch((err: unknown) => {
    if (isConsumerNotFound(err)) return null;
    throw err;
  });
}

// Both keys always present: update() merges into the current config, so a
// switch between single and multi filter must clear the other key.
function fullFilter(s: ConsumerSettings): Pick<ConsumerConfig, "filter_subject" | "filter_subjects"> {
  return { filter_subject: s.filter.filter_subject, filter_subjects: s.filter.filter_subjects };
}

/**
 * Creates the durable pull consumer or updates its filter. `max_deliver` is
 * unlimited on the server on purpose: the subscriber enforces maxDeliver
 * itself so the last failure is always dead-lettered, never dropped silently.
 */
export async function ensureConsumer(jsm: JetStreamManager, s: ConsumerSettings, logger: Logger): Promise<void> {
  const existing = await consumerInfoOrNull(jsm, s.stream, s.durable);
  if (!existing) {
    try {
      await jsm.consumers.add(s.stream, {
        durable_name: s.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: s.startFrom === "all" ? DeliverPolicy.All : DeliverPolicy.New,
        ack_wait: nanos(s.ackWaitMs),
        max_deliver: -1,
        ...fullFilter(s),
      });
      return;
    } catch (err) {
      // Lost a creation race with another subscriber; fall through to reconcile.
      logger.debug({ err, consumer: s.durable }, "consumer add failed; reconciling");
    }
  }
  await reconcileConsumer(jsm, s, existing ?? (await jsm.consumers.info(s.stream, s.durable)), logger);
}

/** Brings an existing consumer's filter and ack wait in line with the subscription (last subscribe wins). */
export async function reconcileConsumer(jsm: JetStreamManager, s: ConsumerSettings, info: ConsumerInfo, logger: Logger): Promise<void> {
  const filter = fullFilter(s);
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

/**
 * Re-creates a durable consumer that went missing, with the configuration it had
 * when the subscription started (`startConfig`, as read back from the server),
 * except where it starts: from stream sequence `fromSeq`, or from the first
 * stored message when `fromSeq` is undefined.
 *
 * Idempotent across replicas racing to do the same: a consumer that exists by the
 * time the add fails (another replica won, possibly with another start sequence;
 * servers answer "already exists" / "can not be updated" then) is success, after
 * the same filter/ack-wait reconciliation as at subscribe. Re-adding an identical
 * config is accepted by the server as is.
 */
export async function recreateConsumer(
  jsm: JetStreamManager,
  s: ConsumerSettings,
  startConfig: Partial<ConsumerConfig>,
  fromSeq: number | undefined,
  logger: Logger,
): Promise<"created" | "exists"> {
  // Where the old consumer started is not carried over (nor a pause, servers >= 2.11).
  const config: Partial<ConsumerConfig> & { pause_until?: string } = { ...startConfig };
  for (const key of ["deliver_policy", "opt_start_seq", "opt_start_time", "pause_until"] as const) delete config[key];
  const start =
    fromSeq === undefined ? { deliver_policy: DeliverPolicy.All } : { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: fromSeq };
  try {
    await jsm.consumers.add(s.stream, { ...config, durable_name: s.durable, ...start });
    return "created";
  } catch (err) {
    const existing = await consumerInfoOrNull(jsm, s.stream, s.durable);
    if (!existing) throw err;
    logger.debug({ err, consumer: s.durable }, "consumer re-created by another subscriber meanwhile; reconciling");
    await reconcileConsumer(jsm, s, existing, logger);
    return "exists";
  }
}
