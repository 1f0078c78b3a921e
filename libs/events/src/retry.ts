/** Delay before redelivery, given the attempt that just failed (1-based). */
export type RetryDelay = number | ((attempt: number) => number);

/** Exponential 1s, 2s, 4s ... capped at a minute. */
export const defaultRetryDelay = (attempt: number): number => Math.min(1000 * 2 ** (attempt - 1), 60_000);

export function resolveRetryDelay(delay: RetryDelay | undefined, attempt: number): number {
  if (delay === undefined) return defaultRetryDelay(attempt);
  return typeof delay === "number" ? delay : delay(attempt);
}

export const DEFAULT_MAX_DELIVER = 5;

/** The subscription's own limit (positive; `Infinity`: never dead-letter), else the bus's. */
export function maxDeliverOf(o: { maxDeliver?: number }, busDefault: number): number {
  if (o.maxDeliver === undefined) return busDefault;
  if (!(o.maxDeliver >= 1)) throw new Error(`maxDeliver must be at least 1 (or Infinity), got ${o.maxDeliver}`);
  return o.maxDeliver;
}
