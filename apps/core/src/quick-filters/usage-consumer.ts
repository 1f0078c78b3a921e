// The quick filter usage index, fed by `quickFilter.usage.changed`
// (libs/runtime/src/quick-filters/usage-events.ts): one row per (filter, user),
// newest version wins, so redelivered or reordered events keep it right. Rows
// with used=false stay as tombstones until the filter is deleted.
import type { Knex } from "knex";
import { z } from "zod";
import { withInbox, type EventBus, type EventEnvelope, type Subscription } from "@signage/events";
import { QUICK_FILTER_USAGE_CHANGED, QUICK_FILTER_USER_TYPES } from "@signage/runtime";
import type { CoreLogger } from "../deps.js";
import { customerExists } from "../tags/tag-index-consumer.js";

const usageSchema = z.object({
  quickFilterId: z.string().min(1),
  usedByType: z.enum(QUICK_FILTER_USER_TYPES),
  usedById: z.string().min(1),
  used: z.boolean(),
  version: z.number().int(),
});

export async function applyUsageEvent(trx: Knex.Transaction, event: EventEnvelope, logger: CoreLogger): Promise<void> {
  const parsed = usageSchema.safeParse(event.data);
  if (!parsed.success || event.customerId === null) {
    logger.warn({ eventId: event.id, type: event.type }, "quick filter usage event ignored: malformed");
    return;
  }
  if (!(await customerExists(trx, event.customerId))) return;
  const u = parsed.data;
  await trx.raw(
    `insert into quick_filter_usage (quick_filter_id, used_by_type, used_by_id, customer_id, used, version) values (?, ?, ?, ?, ?, ?)
     on conflict (quick_filter_id, used_by_type, used_by_id) do update
       set used = excluded.used, version = excluded.version, customer_id = excluded.customer_id
       where excluded.version > quick_filter_usage.version
          or (excluded.version = quick_filter_usage.version and not excluded.used)`,
    [u.quickFilterId, u.usedByType, u.usedById, event.customerId, u.used, u.version],
  );
}

export function subscribeQuickFilterUsage(bus: EventBus, knex: Knex, logger: CoreLogger): Promise<Subscription> {
  const consumer = "core.quick-filter-usage";
  return bus.subscribe({
    consumer,
    types: [QUICK_FILTER_USAGE_CHANGED],
    startFrom: "all",
    // Never dead-lettered: a dropped usage change would keep a quick filter "used" (or not) for good.
    maxDeliver: Infinity,
    handler: withInbox(knex, consumer, (event, trx) => applyUsageEvent(trx, event, logger)),
  });
}
