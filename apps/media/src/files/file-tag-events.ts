// Core's tag index counts file tags from `tags.changed` / `tags.resourceDeleted`
// (libs/runtime/src/tags): the full tag set of each changed file, enqueued in
// the transaction that changed it (published by the outbox after commit).
import type { Knex } from "knex";
import { enqueueTaggedResourceDeleted, enqueueTagsChanged, type OutboxPort } from "@signage/runtime";

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
 * Files created (uploads) or re-assigned to teams (assignment updates, team.deleted,
 * replace): their tag sets and team ids as written in `trx`. Untagged files are
 * left out; core's index holds nothing for them. Team changes keep update_date,
 * so the version repeats the last tag change's: core applies an equal version.
 */
export async function announceFileTags(trx: Knex.Transaction, outbox: OutboxPort, fileIds: readonly string[]): Promise<void> {
  if (fileIds.length === 0) return;
  const rows: TaggedFileRow[] = await trx("file").whereIn("id", [...fileIds]).select(TAGGED_FILE_COLUMNS);
  await enqueueFileTags(trx, outbox, rows.filter((r) => r.tags.length > 0));
}


/** Deleted files leave core's tag index: one tombstone each, in the deleting transaction. */
export async function enqueueFilesUntagged(trx: Knex.Transaction, outbox: OutboxPort, customerId: number, fileIds: readonly string[]): Promise<void> {
  for (const resourceId of fileIds) await enqueueTaggedResourceDeleted(outbox, trx, { customerId, tagType: "FILE", resourceId });
}
