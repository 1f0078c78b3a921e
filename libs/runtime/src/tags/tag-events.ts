// The event contract that keeps core's per-tenant tag index (tag counts of
// `GET /api/tag`) current without fan-out: every service that owns tagged
// resources announces the resource's FULL current tag set and team ids with
// each change, and a tombstone when the resource is deleted. Both go through
// the service's outbox in the transaction of the change, so a crash between
// commit and publish loses nothing and a rollback announces nothing.
//
// Idempotent and order-tolerant: each event carries `version` (the resource's
// updatedAt in ms, or any number that grows with each change of the resource);
// core ignores an event older than what it already holds, and a deletion wins
// over a change of the same version. Redelivery is harmless (full state).
import type { Knex } from "knex";
import type { PublishInput } from "@signage/events";
import type { OutboxPort } from "./outbox-port.js";
import type { TagType } from "./tag-types.js";

export const TAGS_CHANGED = "tags.changed";
export const TAGS_RESOURCE_DELETED = "tags.resourceDeleted";

/** `data` of `tags.changed`; the envelope's customerId is the resource's tenant. */
export interface TagsChangedData {
  tagType: TagType;
  resourceId: string;
  /** The full current set (not a delta). */
  tags: string[];
  /** The resource's current team ids (empty: assigned to no team). */
  teamIds: string[];
  version: number;
}

/** `data` of `tags.resourceDeleted`. */
export interface TagsResourceDeletedData {
  tagType: TagType;
  resourceId: string;
  version: number;
}

export interface TaggedResourceState {
  customerId: number;
  tagType: TagType;
  resourceId: string;
  tags: readonly string[];
  teamIds?: readonly string[];
  /** Default: now (ms). Pass the row's updatedAt when there is one. */
  version?: number | Date;
}

export interface TaggedResourceDeletion {
  customerId: number;
  tagType: TagType;
  resourceId: string;
  version?: number | Date;
}

function versionOf(v: number | Date | undefined): number {
  if (v instanceof Date) return v.getTime();
  return v ?? Date.now();
}

/** The `tags.changed` event of one resource (its full current tags and teams). */
export function tagsChangedEvent(state: TaggedResourceState): PublishInput<TagsChangedData> {
  const data: TagsChangedData = {
    tagType: state.tagType,
    resourceId: state.resourceId,
    tags: [...new Set(state.tags)],
    teamIds: [...new Set(state.teamIds ?? [])],
    version: versionOf(state.version),
  };
  return { type: TAGS_CHANGED, customerId: state.customerId, data };
}

/** The `tags.resourceDeleted` event of one resource. */
export function taggedResourceDeletedEvent(deletion: TaggedResourceDeletion): PublishInput<TagsResourceDeletedData> {
  const data: TagsResourceDeletedData = { tagType: deletion.tagType, resourceId: deletion.resourceId, version: versionOf(deletion.version) };
  return { type: TAGS_RESOURCE_DELETED, customerId: deletion.customerId, data };
}

/** Stores `tags.changed` in `trx`, the transaction that wrote the tags; published after commit. Returns the event id. */
export function enqueueTagsChanged(outbox: OutboxPort, trx: Knex.Transaction, state: TaggedResourceState): Promise<string> {
  return outbox.enqueue(trx, tagsChangedEvent(state));
}

/** Stores `tags.resourceDeleted` in `trx`, the transaction that deleted the resource. Returns the event id. */
export function enqueueTaggedResourceDeleted(outbox: OutboxPort, trx: Knex.Transaction, deletion: TaggedResourceDeletion): Promise<string> {
  return outbox.enqueue(trx, taggedResourceDeletedEvent(deletion));
}
