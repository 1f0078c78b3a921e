// Every event a consumer applied leaves a mark in its service's event inbox (withInbox: applied
// once). A mark only matters while that event can still be delivered again: JetStream keeps events
// for the stream's retention (7 days), so marks older than that (plus a day) guard nothing and
// would grow the table for ever. KnexInbox.prune deletes in batches, so no round holds a long
// transaction; replicas may prune at once (each batch deletes what is still there).
import type { Knex } from "knex";
import { createKnexInbox, DEFAULT_INBOX_TABLE } from "@signage/events";
import type { Logger } from "@signage/platform";
import { positiveIntegerFromEnv } from "./env-numbers.js";
import { schedulePeriodicJob, type PeriodicJob } from "./periodic-job.js";

const DAY_MS = 24 * 60 * 60 * 1000;
export const EVENT_INBOX_RETENTION_MS = 8 * DAY_MS;
export const EVENT_INBOX_PRUNE_INTERVAL_MS = 60 * 60 * 1000;
const FIRST_ROUND_AFTER_MS = 60_000;

/**
 * The service's inbox prune, hourly (first round a minute after start), when its schema has an
 * inbox. EVENT_INBOX_RETENTION_MS and EVENT_INBOX_PRUNE_INTERVAL_MS override the defaults.
 */
export async function scheduleInboxPrune(knex: Knex, env: Record<string, string | undefined>, logger: Pick<Logger, "info" | "warn">): Promise<PeriodicJob | undefined> {
  const retentionMs = positiveIntegerFromEnv(env, "EVENT_INBOX_RETENTION_MS", EVENT_INBOX_RETENTION_MS);
  const intervalMs = positiveIntegerFromEnv(env, "EVENT_INBOX_PRUNE_INTERVAL_MS", EVENT_INBOX_PRUNE_INTERVAL_MS);
  if (!(await knex.schema.hasTable(DEFAULT_INBOX_TABLE))) return undefined;
  const inbox = createKnexInbox(knex);
  return schedulePeriodicJob({
    name: "event inbox prune",
    intervalMs,
    firstRoundAfterMs: Math.min(FIRST_ROUND_AFTER_MS, intervalMs),
    logger,
    run: () => inbox.prune(new Date(Date.now() - retentionMs)),
  });
}
