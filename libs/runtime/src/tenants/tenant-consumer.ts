// Applies customer.* facts to the service's tenant replica, exactly once per
// event (inbox in the same transaction), with hooks for the service's own
// reaction (media creates the root folder; every service removes a deleted
// customer's rows).
import type { Knex } from "knex";
import type { TenantAccessChanges } from "@signage/auth";
import { withInbox, type EventBus, type Subscription } from "@signage/events";
import { markTenantDeleted, upsertTenant, type TenantFacts } from "./tenant-replica.js";

export interface TenantHooks {
  onCreated?(trx: Knex.Transaction, facts: TenantFacts): Promise<void>;
  /** Delete everything the service holds for this customer (same transaction as the tombstone). */
  onDeleted?(trx: Knex.Transaction, facts: TenantFacts): Promise<void>;
}

/** `changes` hears of every applied fact once its transaction committed (the access cache drops the tenant). */
export async function subscribeTenantReplica(bus: EventBus, knex: Knex, service: string, changes: TenantAccessChanges, hooks: TenantHooks = {}): Promise<Subscription> {
  const consumer = `${service}.tenants`;
  const apply = withInbox<TenantFacts>(knex, consumer, async (event, trx) => {
    const facts = event.data;
    // One customer's events are applied one at a time, whatever the consumer's concurrency.
    await trx.raw("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [`tenant-replica:${facts.id}`]);
    const existing: { deleted?: boolean; version?: string | number | null } | undefined = await trx("tenant").where({ customer_id: facts.id }).first("deleted", "version");
    if (event.type === "customer.deleted") {
      await hooks.onDeleted?.(trx, facts);
      await markTenantDeleted(trx, facts, event.seq);
      return;
    }
    // A late created/updated never revives a deleted tenant.
    if (existing?.deleted) return;
    // A redelivered older event (retried after a newer one went through) never undoes the newer
    // facts: `seq` is core's outbox sequence. Its creation hook still runs (it is idempotent).
    const stale = event.seq !== undefined && existing?.version != null && Number(existing.version) >= event.seq;
    if (!stale) await upsertTenant(trx, facts, event.seq);
    if (event.type === "customer.created") await hooks.onCreated?.(trx, facts);
  });
  return bus.subscribe<TenantFacts>({
    consumer,
    types: ["customer.created", "customer.updated", "customer.deleted"],
    startFrom: "all",
    // Never dead-lettered (as the team replica): a dropped customer.created leaves no root folder,
    // a dropped customer.deleted leaves the customer's rows in place, and no later event repairs either.
    maxDeliver: Infinity,
    handler: async (event) => {
      await apply(event);
      changes.changed(event.data.id);
    },
  });
}
