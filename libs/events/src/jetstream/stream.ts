import { RetentionPolicy, StorageType, nanos, type JetStreamManager, type NatsError, type StreamInfo } from "nats";

export interface StreamSettings {
  name: string;
  subjectPrefix: string;
  duplicateWindowMs: number;
  maxAgeMs: number;
  /** Only applied on creation; changing replicas is an operator decision. */
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
export async function ensureStream(jsm: JetStreamManager, s: StreamSettings): Promise<StreamInfo> {
  const managed = {
    subjects: [`${s.subjectPrefix}.>`],
    duplicate_window: nanos(s.duplicateWindowMs),
    max_age: nanos(s.maxAgeMs),
  };
  try {
    return await jsm.streams.add({
      name: s.name,
      storage: StorageType.File,
      // Limits retention: every durable consumer sees every event, independently.
      retention: RetentionPolicy.Limits,
      num_replicas: s.replicas ?? 1,
      ...managed,
    });
  } catch (err) {
    if ((err as NatsError).api_error?.err_code !== STREAM_NAME_EXISTS) throw err;
    return jsm.streams.update(s.name, managed);
  }
}
