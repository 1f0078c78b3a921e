// Every event a consumer applied leaves a mark in its service's event inbox (withInbox: applied
// once). A mark only matters while that event can still be delivered again: JetStream keeps events
// for the stream's retention (7 days), so marks older than that (plus a day) guard nothing and
// would grow the table for ever. Deleted in batches, so no round holds a long transaction or a
// large lock; replicas may prune at once (each batch deletes what is still there).
import type { Knex } from "knex";
import { DEFAULT_INBOX_TABLE } from "@signage/events";
import type { Logger } from "@signage/platform";
import { schedulePeriodicJob, type PeriodicJob } from "./periodic-job.js";

const DAY_MS = 24 * 60 * 60 * 1000;
export const EVENT_INBOX_RETENTION_MS = 8 * DAY_MS;
export const EVENT_INBOX_PRUNE_INTERVAL_MS = 60 * 60 * 1000;
const FIRST_ROUND_AFTER_MS = 60_000;

/** Deletes marks processed before `olderThan`, `batchSize` rows per statement, at most `maxBatches` statements; returns how many. */
export async function pruneEventInbox(knex: Knex, options: { olderThan: Date; batchSize?: number; maxBatches?: number }): Promise<number> {
  const batchSize = options.batchSize ?? 10_000;
  const maxBatches = options.maxBatches ?? 100;
  let removed = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const result = await knex.raw(`DELETE FROM ?? WHERE ctid IN (SELECT ctid FROM ?? WHERE processed_at < ? LIMIT ?)`, [DEFAULT_INBOX_TABLE, DEFAULT_INBOX_TABLE, options.olderThan, batchSize]);
    const count = (result as { rowCount: number }).rowCount;
    removed += count;
    if (count < batchSize) break;
  }
  return removed;
}

function positiveMs(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number of milliseconds, got '${raw}'`);
  return value;
}

/**
 * The service's inbox prune, hourly (first round a minute after start), when its schema has an
 * inbox. EVENT_INBOX_RETENTION_MS and EVENT_INBOX_PRUNE_INTERVAL_MS override the defaults.
 */
export async function scheduleInboxPrune(knex: Knex, env: Record<string, string | undefined>, logger: Pick<Logger, "info" | "warn">): Promise<PeriodicJob | undefined> {
  const retentionMs = positiveMs(env, "EVENT_INBOX_RETENTION_MS", EVENT_INBOX_RETENTION_MS);
  const intervalMs = positiveMs(env, "EVENT_INBOX_PRUNE_INTERVAL_MS", EVENT_INBOX_PRUNE_INTERVAL_MS);
  if (!(await knex.schema.hasTable(DEFAULT_INBOX_TABLE))) return undefined;
  return schedulePeriodicJob({
    name: "event inbox prune",
    intervalMs,
    firstRoundAfterMs: Math.min(FIRST_ROUND_AFTER_MS, intervalMs),
    logger,
    run: () => pruneEventInbox(knex, { olderThan: new Date(Date.now() - retentionMs) }),
  });
}
