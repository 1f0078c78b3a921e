import type { DeadLetterData } from "./bus.js";
import type { EventEnvelope, PublishInput } from "./envelope.js";
import type { Logger } from "./logger.js";
import { deadLetterType } from "./subjects.js";

export interface DeadLetterInfo {
  consumer: string;
  attempts: number;
  error: unknown;
  event: EventEnvelope | null;
  /** Raw payload and a stable id for messages that could not be parsed. */
  raw?: { payload: string; id: string };
}

type Publish = (input: PublishInput<DeadLetterData>) => Promise<unknown>;

/**
 * Gives up on an event: logs at error level and re-publishes it as
 * `deadletter.<type>` (id derived from event + consumer, so retries of this
 * step dedupe). Returns false if the dead letter could not be published, in
 * which case the caller must keep the original message alive.
 */
export async function deadLetter(publish: Publish, logger: Logger, info: DeadLetterInfo): Promise<boolean> {
  const error = info.error instanceof Error ? info.error.message : String(info.error);
  const type = info.event?.type ?? "invalid";
  const baseId = info.event?.id ?? info.raw?.id ?? "unknown";
  logger.error(
    { err: info.error, consumer: info.consumer, eventId: info.event?.id, eventType: type, attempts: info.attempts },
    "event dead-lettered: giving up after failed deliveries",
  );
  const data: DeadLetterData = { consumer: info.consumer, attempts: info.attempts, error, event: info.event };
  if (info.raw) data.raw = info.raw.payload;
  try {
    await publish({
      id: `${baseId}:deadletter:${info.consumer}`,
      type: deadLetterType(type),
      customerId: info.event?.customerId ?? null,
      data,
    });
    return true;
  } catch (err) {
    logger.error({ err, consumer: info.consumer, eventId: baseId }, "failed to publish dead letter; keeping message");
    return false;
  }
}
