// Core refuses to delete a quick filter while something uses it (channels,
// sub-channels, data sources, filtered folders), and computes `readOnly` from
// channel / sub-channel use. The services owning those users tell core by
// event, so the check needs no fan-out: enqueue `quickFilter.usage.changed`
// in the transaction that changes the user (its outbox publishes it after
// commit), with used=true when a user starts using the filter (e.g. a filtered
// folder is created) and used=false when it stops (deleted, or switched to
// another filter: one event per filter). Idempotent: core keeps one row per
// (quickFilterId, usedByType, usedById) and applies the newest `version`.
import type { Knex } from "knex";
import type { PublishInput } from "@signage/events";
import type { OutboxPort } from "../tags/outbox-port.js";

export const QUICK_FILTER_USAGE_CHANGED = "quickFilter.usage.changed";

/** What uses the filter. CAMPAIGN and MESSAGE make the filter readOnly. */
export const QUICK_FILTER_USER_TYPES = ["FILE_FOLDER", "CAMPAIGN", "MESSAGE", "DATASOURCE"] as const;
export type QuickFilterUserType = (typeof QUICK_FILTER_USER_TYPES)[number];

/** `data` of `quickFilter.usage.changed`; the envelope's customerId is the user's tenant. */
export interface QuickFilterUsageChangedData {
  quickFilterId: string;
  usedByType: QuickFilterUserType;
  usedById: string;
  used: boolean;
  /** Grows with each change of the using resource (ms; by default the database's clock at the change). */
  version: number;
}

export interface QuickFilterUsage {
  customerId: number;
  quickFilterId: string;
  usedByType: QuickFilterUserType;
  usedById: string;
  used: boolean;
  version?: number | Date;
}

export function quickFilterUsageEvent(usage: QuickFilterUsage): PublishInput<QuickFilterUsageChangedData> {
  const version = usage.version instanceof Date ? usage.version.getTime() : (usage.version ?? Date.now());
  const data: QuickFilterUsageChangedData = {
    quickFilterId: usage.quickFilterId,
    usedByType: usage.usedByType,
    usedById: usage.usedById,
    used: usage.used,
    version,
  };
  return { type: QUICK_FILTER_USAGE_CHANGED, customerId: usage.customerId, data };
}

/**
 * Stores the usage change in `trx` (e.g. the filtered folder's create / delete); published after commit. Returns the event id.
 * Without a version of its own, the change is versioned by the database's clock, not this process's: a folder created on a
 * replica whose clock runs ahead and deleted a moment later on another would otherwise send its "no longer used" with the
 * older version, which core ignores, and the filter would stay "used" (undeletable) for good.
 */
export async function enqueueQuickFilterUsage(outbox: OutboxPort, trx: Knex.Transaction, usage: QuickFilterUsage): Promise<string> {
  const version = usage.version ?? (await databaseNowMs(trx));
  return outbox.enqueue(trx, quickFilterUsageEvent({ ...usage, version }));
}

async function databaseNowMs(trx: Knex.Transaction): Promise<number> {
  const { rows } = await trx.raw<{ rows: { ms: string }[] }>("SELECT floor(extract(epoch from clock_timestamp()) * 1000)::bigint AS ms");
  return Number(rows[0].ms);
}
