// The event contract that keeps core's per-tenant tag index (tag counts of
// `GET /api/tag`) current without fan-out: every service that owns tagged
// resources publishes the resource's FULL current tag set and team ids after
// each change, and a tombstone when the resource is deleted.
//
// Idempotent and order-tolerant: each event carries `version` (the resource's
// updatedAt in ms, or any number that grows with each change of the resource);
// core ignores an event older than what it already holds, and a deletion wins
// over a change of the same version. Redelivery is harmless (full state).
import type { Knex } from "knex";
import type { EventBus } from "@signage/events";
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

/** Publishes `tags.changed` for one resource (its full current tags and teams). */
export function publishTagsChanged(bus: EventBus, state: TaggedResourceState): Promise<unknown> {
  const data: TagsChangedData = {
    tagType: state.tagType,
    resourceId: state.resourceId,
    tags: [...new Set(state.tags)],
    teamIds: [...new Set(state.teamIds ?? [])],
    version: versionOf(state.version),
  };
  return bus.publish({ type: TAGS_CHANGED, customerId: state.customerId, data });
}

/** Publishes `tags.resourceDeleted` for one resource. */
export function publishTaggedResourceDeleted(bus: EventBus, deletion: TaggedResourceDeletion): Promise<unknown> {
  const data: TagsResourceDeletedData = { tagType: deletion.tagType, resourceId: deletion.resourceId, version: versionOf(deletion.version) };
  return bus.publish({ type: TAGS_RESOURCE_DELETED, customerId: deletion.customerId, data });
}

/**
 * Runs `publish` once `trx` has committed (never for a rolled-back transaction),
 * e.g. `afterCommit(trx, () => publishTagsChanged(bus, {...}))` inside the
 * transaction that wrote the tags. A failed publish is reported to `onError`.
 */
export function afterCommit(trx: Knex.Transaction, publish: () => Promise<unknown>, onError: (e: unknown) => void = () => undefined): void {
  trx.executionPromise.then(
    () => publish().catch(onError),
    () => undefined,
  );
}
