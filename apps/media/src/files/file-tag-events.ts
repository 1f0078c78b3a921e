// Core's tag index counts file tags from `tags.changed` / `tags.resourceDeleted`
// (libs/runtime/src/tags): the full tag set of each changed file, enqueued in
// the transaction that changed it (published by the outbox after commit).
import type { Knex } from "knex";
import { enqueueTaggedResourceDeleted, enqueueTagsChanged, matchesAnyUuid, type OutboxPort } from "@signage/runtime";
import { nextFileUpdateDate } from "./next-update-date.js";

export interface TaggedFileRow {
  id: string;
  customer_id: string | number;
  tags: string[];
  team_ids?: string[] | null;
  update_date?: Date;
}

/** Columns to `returning(...)` from an update so the events can be built. */
export const TAGGED_FILE_COLUMNS = ["id", "customer_id", "tags", "team_ids", "update_date"];

/** `tags.changed` for each row as `trx` wrote it. */
export async function enqueueFileTags(trx: Knex.Transaction, outbox: OutboxPort, rows: TaggedFileRow[]): Promise<void> {
  for (const row of rows) {
    await enqueueTagsChanged(outbox, trx, { customerId: Number(row.customer_id), tagType: "FILE", resourceId: row.id, tags: row.tags, teamIds: row.team_ids ?? [], version: row.update_date });
  }
}

/**
 * Files created (uploads) or re-assigned to teams (after touchFiles): their tag sets and team ids
 * as written in `trx`. Untagged files are left out; core's index holds nothing for them.
 */
export async function announceFileTags(trx: Knex.Transaction, outbox: OutboxPort, fileIds: readonly string[]): Promise<void> {
  if (fileIds.length === 0) return;
  // One array parameter: a team's deletion may touch more files than a statement takes parameters.
  const rows: TaggedFileRow[] = await trx("file").whereRaw(...matchesAnyUuid("id", [...fileIds])).select(TAGGED_FILE_COLUMNS);
  await enqueueFileTags(trx, outbox, rows.filter((r) => r.tags.length > 0));
}

/**
 * A change of these files' teams (assignment updates, team.deleted, replace) moves their
 * update_date on (nextFileUpdateDate), as any other change does: it is the version of the state
 * core's tag index keeps, and two team changes announced with one version were applied in the
 * order they arrived, so a redelivered older one (or one a second core replica took meanwhile)
 * left the file counted for a team it had left. Returns the rows as written.
 */
export async function touchFiles(trx: Knex.Transaction, fileIds: readonly string[]): Promise<TaggedFileRow[]> {
  if (fileIds.length === 0) return [];
  return trx("file").whereRaw(...matchesAnyUuid("id", [...fileIds])).update({ update_date: nextFileUpdateDate(trx) }, TAGGED_FILE_COLUMNS);
}

/** touchFiles, then their tags and teams for core's index (tagged files only). */
export async function announceFileTeamChange(trx: Knex.Transaction, outbox: OutboxPort, fileIds: readonly string[]): Promise<void> {
  const rows = await touchFiles(trx, fileIds);
  await enqueueFileTags(trx, outbox, rows.filter((r) => r.tags.length > 0));
}


/** Deleted files leave core's tag index: one tombstone each, in the deleting transaction. */
export async function enqueueFilesUntagged(trx: Knex.Transaction, outbox: OutboxPort, customerId: number, fileIds: readonly string[]): Promise<void> {
  for (const resourceId of fileIds) await enqueueTaggedResourceDeleted(outbox, trx, { customerId, tagType: "FILE", resourceId });
}
