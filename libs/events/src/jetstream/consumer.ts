import { AckPolicy, DeliverPolicy, nanos, type ConsumerConfig, type ConsumerInfo, type JetStreamManager, type NatsError } from "nats";
import type { Logger } from "../logger.js";
import { collapsePatterns, patternCovers, samePatterns, subjectFor } from "../subjects.js";

/** NATS consumer names cannot contain `.`, `*`, `>`, whitespace or path separators. */
export function durableName(consumer: string): string {
  if (!consumer) throw new Error("consumer name must not be empty");
  return consumer.replace(/[.*>\s/\\]/g, "_");
}

function atLeast(serverVersion: string | undefined, want: [number, number, number]): boolean {
  const have = (serverVersion ?? "0.0.0").split(/[.-]/).map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < 3; i++) if ((have[i] ?? 0) !== want[i]) return (have[i] ?? 0) > want[i];
  return true;
}

/** Multiple filter subjects on one consumer arrived in nats-server 2.10. */
export function supportsMultiFilter(serverVersion: string | undefined): boolean {
  return atLeast(serverVersion, [2, 10, 0]);
}

/**
 * A changed filter takes effect on a running consumer from nats-server 2.9.14 on. Before
 * (nats-server#3829, fixed in 2.9.12, whose regressions 2.9.14 fixed) the consumer keeps
 * matching as before the change: changed from a literal subject to a wildcard it delivers
 * nothing at all, and pulls waiting on it are not woken by messages on the new subjects.
 */
export function supportsFilterUpdate(serverVersion: string | undefined): boolean {
  return atLeast(serverVersion, [2, 9, 14]);
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
  /** Subject prefix of the stream: `<prefix>.>` is the filter of last resort when widening on an old server. */
  subjectPrefix: string;
  /** The server takes several filter subjects on one consumer (2.10+). */
  multiFilter: boolean;
  /** The server applies a changed filter to an existing consumer (2.9.14+); else the consumer is replaced. */
  filterUpdates: boolean;
}

type Filter = Pick<ConsumerConfig, "filter_subject" | "filter_subjects">;

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

/** Where a consumer starts is not carried over when it is re-created (nor a pause, servers >= 2.11). */
function withoutStart(config: Partial<ConsumerConfig>): Partial<ConsumerConfig> {
  const rest: Partial<ConsumerConfig> & { pause_until?: string } = { ...config };
  for (const key of ["deliver_policy", "opt_start_seq", "opt_start_time", "pause_until"] as const) delete rest[key];
  return rest;
}

/**
 * Gives an existing consumer another filter and/or ack wait. Where the server does not
 * apply a changed filter to a running consumer (see supportsFilterUpdate) the consumer is
 * replaced: deleted and added again under its name with the new settings, starting right
 * after its ack floor as just read (what other subscribers hold comes again, as after a
 * re-create, see heal.ts; nothing is skipped). Subscribers of the old one resume on it.
 * A subscriber that re-creates it in between (with its own settings) wins the add: the
 * caller reads it back and tries again.
 */
async function changeConsumer(
  jsm: JetStreamManager,
  s: ConsumerSettings,
  info: ConsumerInfo,
  change: { filter?: Filter; ackWait?: number },
  logger: Logger,
): Promise<void> {
  const ackWait = change.ackWait === undefined ? {} : { ack_wait: change.ackWait };
  if (!change.filter || s.filterUpdates) {
    await jsm.consumers.update(s.stream, s.durable, { ...change.filter, ...ackWait });
    return;
  }
  const fromSeq = ackFloorOf(info) + 1;
  logger.warn({ consumer: s.durable, deliverFrom: fromSeq }, "this NATS server does not apply a changed filter to a running consumer: replacing it (same name, resuming after its ack floor)");
  await jsm.consumers.delete(s.stream, s.durable).catch((err: unknown) => {
    if (!isConsumerNotFound(err)) throw err;
  });
  const raced = await addFrom(jsm, s, { ...info.config, ...change.filter, ...ackWait }, fromSeq);
  if (raced) logger.debug({ consumer: s.durable }, "consumer re-created by another subscriber while being replaced");
}

/**
 * Adds the durable with `config` (its start stripped) from stream sequence `fromSeq`, or from the
 * first stored message when undefined. Null once added; the consumer found instead when the add
 * failed because another subscriber's add came first (any other failure throws).
 */
async function addFrom(jsm: JetStreamManager, s: ConsumerSettings, config: Partial<ConsumerConfig>, fromSeq: number | undefined): Promise<ConsumerInfo | null> {
  const start = fromSeq === undefined ? { deliver_policy: DeliverPolicy.All } : { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: fromSeq };
  try {
    await jsm.consumers.add(s.stream, { ...withoutStart(config), durable_name: s.durable, ...start });
    return null;
  } catch (err) {
    const existing = await consumerInfoOrNull(jsm, s.stream, s.durable);
    if (!existing) throw err;
    return existing;
  }
}

const CONSUMER_NOT_FOUND = 10014;

function isConsumerNotFound(err: unknown): boolean {
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

/**
 * At subscribe: brings an existing consumer's filter and ack wait in line with the
 * subscription (last subscribe wins; a process starting is the newest intent). Not
 * used when a running subscription resumes: that only ever widens (widenConsumer).
 */
async function reconcileConsumer(jsm: JetStreamManager, s: ConsumerSettings, info: ConsumerInfo, logger: Logger): Promise<void> {
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

/** The subjects a consumer config takes, or null when it takes the whole stream (no filter). */
function filterPatterns(f: Pick<ConsumerConfig, "filter_subject" | "filter_subjects">): string[] | null {
  if (f.filter_subjects?.length) return f.filter_subjects;
  if (f.filter_subject) return [f.filter_subject];
  return null;
}

/**
 * The filter of an existing consumer widened to also take what `s` asks for, or
 * undefined when it already takes all of it. Never narrower than `existing`.
 */
export function widenedFilter(
  existing: Pick<ConsumerConfig, "filter_subject" | "filter_subjects">,
  s: ConsumerSettings,
): Pick<ConsumerConfig, "filter_subject" | "filter_subjects"> | undefined {
  const have = filterPatterns(existing);
  if (!have) return undefined;
  const want = filterPatterns(s.filter) ?? [`${s.subjectPrefix}.>`];
  if (want.every((w) => have.some((h) => h === w || patternCovers(h, w)))) return undefined;
  const union = collapsePatterns([...have, ...want]);
  if (union.length === 1) return { filter_subject: union[0], filter_subjects: undefined };
  if (s.multiFilter) return { filter_subject: undefined, filter_subjects: union };
  return { filter_subject: `${s.subjectPrefix}.>`, filter_subjects: undefined };
}

/**
 * Resuming on a consumer that exists (after a hiccup, or re-created by another
 * replica): never narrows it. Replicas of two versions share the durable during a
 * rolling deploy; "last one wins" here would let every hiccup of an old replica flip
 * the filter back to the old version's, and the new version's events would be
 * skipped for good. So the filter only ever widens (to take what this subscription
 * needs as well: events outside its types are acked by the client, see
 * handle-message) and the ack wait only ever grows (a longer one is safe for this
 * replica's keep-alive; a shorter one would let the server redeliver what it holds).
 * The result is read back and widened again if needed (a few times): replicas
 * widening at once must not undo each other.
 */
export async function widenConsumer(jsm: JetStreamManager, s: ConsumerSettings, info: ConsumerInfo, logger: Logger): Promise<void> {
  const ackWait = nanos(s.ackWaitMs);
  for (let attempt = 1; ; attempt++) {
    const filter = widenedFilter(info.config, s);
    const longerAckWait = (info.config.ack_wait ?? 0) < ackWait;
    if (!filter && !longerAckWait) return;
    if (attempt > 3) {
      logger.warn({ consumer: s.durable, config: info.config, want: s.filter }, "consumer keeps being changed by other subscribers; resuming on it as it is");
      return;
    }
    if (filter) {
      logger.warn({ consumer: s.durable, from: filterPatterns(info.config), to: filter }, "widening consumer filter: it did not take all of this subscription's types");
    }
    await changeConsumer(jsm, s, info, { filter, ackWait: longerAckWait ? ackWait : undefined }, logger);
    info = await jsm.consumers.info(s.stream, s.durable);
  }
}

/**
 * Re-creates a durable consumer that went missing, with the configuration it had
 * when the subscription started (`startConfig`, as read back from the server),
 * except where it starts: from stream sequence `fromSeq`, or from the first
 * stored message when `fromSeq` is undefined.
 *
 * Idempotent across replicas racing to do the same: a consumer that exists by the
 * time the add fails (another replica won, possibly with another start sequence or,
 * mid-deploy, another version's filter; servers answer "already exists" / "can not
 * be updated" then) is success, after widening it where it does not take all this
 * subscription needs (never narrowing it: see widenConsumer). Re-adding an identical
 * config is accepted by the server as is.
 */
export async function recreateConsumer(
  jsm: JetStreamManager,
  s: ConsumerSettings,
  startConfig: Partial<ConsumerConfig>,
  fromSeq: number | undefined,
  logger: Logger,
): Promise<"created" | "exists"> {
  const existing = await addFrom(jsm, s, startConfig, fromSeq);
  if (!existing) return "created";
  logger.debug({ consumer: s.durable }, "consumer re-created by another subscriber meanwhile; widening it where needed");
  await widenConsumer(jsm, s, existing, logger);
  return "exists";
}
