import { RetentionPolicy, StorageType, nanos, type JetStreamManager, type NatsError, type StreamInfo } from "nats";
import { noopLogger, type Logger } from "../logger.js";

export interface StreamSettings {
  name: string;
  subjectPrefix: string;
  duplicateWindowMs: number;
  maxAgeMs: number;
  /**
   * Copies of the stream on a clustered server (1 to 5). Applied on creation and, when given, to
   * an existing stream with another count (JetStream moves it to the new replica set). Unset: 1
   * for a new stream, an existing one keeps its count (say one an operator made R3 by hand).
   * A single server accepts only 1.
   */
  replicas?: number;
}

const STREAM_NAME_EXISTS = 10058;
const STREAM_NOT_FOUND = 10059;

export function isStreamNotFound(err: unknown): boolean {
  return (err as NatsError | undefined)?.api_error?.err_code === STREAM_NOT_FOUND;
}

/**
 * Creates the events stream, or brings an existing one in line with our
 * settings. Add-then-update (rather than info-then-add) tolerates several
 * services starting at once.
 */
export async function ensureStream(jsm: JetStreamManager, s: StreamSettings, logger: Logger = noopLogger): Promise<StreamInfo> {
  const replicas = s.replicas ?? 1;
  const managed = {
    subjects: [`${s.subjectPrefix}.>`],
    duplicate_window: nanos(s.duplicateWindowMs),
    max_age: nanos(s.maxAgeMs),
    ...(s.replicas === undefined ? {} : { num_replicas: s.replicas }),
  };
  try {
    return await jsm.streams.add({
      name: s.name,
      storage: StorageType.File,
      // Limits retention: every durable consumer sees every event, independently.
      retention: RetentionPolicy.Limits,
      num_replicas: replicas,
      ...managed,
    });
  } catch (err) {
    if ((err as NatsError).api_error?.err_code !== STREAM_NAME_EXISTS) throw replicasRefused(err, s.name, replicas);
  }
  if (s.replicas === undefined) return jsm.streams.update(s.name, managed);
  const before = (await jsm.streams.info(s.name)).config.num_replicas;
  const updated = await jsm.streams.update(s.name, managed).catch((err: unknown) => {
    throw before === replicas ? err : replicasRefused(err, s.name, replicas);
  });
  if (before !== replicas) logger.warn({ stream: s.name, from: before, to: replicas }, "JetStream stream replica count changed to the configured one");
  return updated;
}

/** A server that cannot hold `replicas` copies (a single server and more than 1) says so in terms of the setting. */
function replicasRefused(err: unknown, stream: string, replicas: number): unknown {
  if (replicas === 1) return err;
  const reason = (err as NatsError).api_error?.description ?? (err as Error).message;
  return new Error(`JetStream refused ${replicas} replicas for stream ${stream} (NATS_STREAM_REPLICAS; a single NATS server takes only 1): ${reason}`, { cause: err });
}
