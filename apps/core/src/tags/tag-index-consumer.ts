// Core's per-tenant tag index, fed by `tags.changed` / `tags.resourceDeleted`
// from every service (contract: libs/runtime/src/tags/tag-events.ts). Each
// event is applied exactly once (inbox in the same transaction); an event
// older than the resource's stored version is ignored, and a deletion beats a
// change of the same version, so redelivery and reordering keep counts right.
import type { Knex } from "knex";
import { z } from "zod";
import { withInbox, type EventBus, type EventEnvelope, type Subscription } from "@signage/events";
import { TAG_TYPES, TAGS_CHANGED, TAGS_RESOURCE_DELETED, isUuid } from "@signage/runtime";
import type { CoreLogger } from "../deps.js";

const changedSchema = z.object({
  tagType: z.enum(TAG_TYPES),
  resourceId: z.string().min(1),
  tags: z.array(z.string().min(1)),
  teamIds: z.array(z.string()).default([]),
  version: z.number().int(),
});

const deletedSchema = z.object({
  tagType: z.enum(TAG_TYPES),
  resourceId: z.string().min(1),
  version: z.number().int(),
});

/**
 * Claims the resource's row for `version`; false when the index already holds a
 * newer state (or a deletion of the same version). Locks the row, so concurrent
 * events of one resource apply one after the other.
 */
async function claimVersion(trx: Knex.Transaction, customerId: number, tagType: string, resourceId: string, version: number, deleted: boolean): Promise<boolean> {
  const result = await trx.raw(
    `insert into tag_resource (tag_type, resource_id, customer_id, version, deleted) values (?, ?, ?, ?, ?)
     on conflict (tag_type, resource_id) do update
       set customer_id = excluded.customer_id, version = excluded.version, deleted = excluded.deleted
       where excluded.version > tag_resource.version
          or (excluded.version = tag_resource.version and not tag_resource.deleted)
     returning 1`,
    [tagType, resourceId, customerId, version, deleted],
  );
  return result.rows.length > 0;
}

/** Events of a customer that no longer exists are dropped (its rows went with it). */
export async function customerExists(trx: Knex.Transaction, customerId: number | null): Promise<boolean> {
  if (customerId === null) return false;
  // KEY SHARE: the customer cannot be deleted until this transaction ends.
  const row = await trx("customer").where({ id: customerId }).forKeyShare().first("id");
  return row !== undefined;
}

export async function applyTagEvent(trx: Knex.Transaction, event: EventEnvelope, logger: CoreLogger): Promise<void> {
  const isChange = event.type === TAGS_CHANGED;
  const parsed = (isChange ? changedSchema : deletedSchema).safeParse(event.data);
  if (!parsed.success) {
    // A malformed event can never succeed; retrying it would only block the consumer.
    logger.warn({ eventId: event.id, type: event.type, issues: parsed.error.issues }, "tag event ignored: malformed");
    return;
  }
  if (!(await customerExists(trx, event.customerId))) return;
  const customerId = event.customerId!;
  const { tagType, resourceId, version } = parsed.data;
  if (!(await claimVersion(trx, customerId, tagType, resourceId, version, !isChange))) return;
  await trx("tag_assignment").where({ tag_type: tagType, resource_id: resourceId }).delete();
  if (!isChange) return;
  const data = parsed.data as z.infer<typeof changedSchema>;
  const tags = [...new Set(data.tags)];
  if (tags.length === 0) return;
  const teamIds = [...new Set(data.teamIds.filter(isUuid))];
  await trx("tag_assignment").insert(
    tags.map((tag) => ({ customer_id: customerId, tag_type: tagType, tag, resource_id: resourceId, team_ids: teamIds })),
  );
}

export function subscribeTagIndex(bus: EventBus, knex: Knex, logger: CoreLogger): Promise<Subscription> {
  const consumer = "core.tag-index";
  return bus.subscribe({
    consumer,
    types: [TAGS_CHANGED, TAGS_RESOURCE_DELETED],
    startFrom: "all",
    // Never dead-lettered: a dropped state would keep a tag counted (or uncounted) for good.
    maxDeliver: Infinity,
    handler: withInbox(knex, consumer, (event, trx) => applyTagEvent(trx, event, logger)),
  });
}
