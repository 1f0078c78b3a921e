// Core's tag index counts file tags from `tags.changed` / `tags.resourceDeleted`
// (libs/runtime/src/tags): the full tag set of each changed file, after commit.
import type { Knex } from "knex";
import type { EventBus } from "@signage/events";
import type { Logger } from "@signage/platform";
import { afterCommit, publishTaggedResourceDeleted, publishTagsChanged } from "@signage/runtime";

export interface TaggedFileRow {
  id: string;
  customer_id: string | number;
  tags: string[];
  team_ids?: string[] | null;
  update_date?: Date;
}

/** Columns to `returning(...)` from an update so the events can be built. */
export const TAGGED_FILE_COLUMNS = ["id", "customer_id", "tags", "team_ids", "update_date"];

export function publishFileTagsAfterCommit(trx: Knex.Transaction, deps: { bus: EventBus; logger: Logger }, rows: TaggedFileRow[]): void {
  if (rows.length === 0) return;
  afterCommit(trx, async () => {
    for (const row of rows) {
      await publishTagsChanged(deps.bus, { customerId: Number(row.customer_id), tagType: "FILE", resourceId: row.id, tags: row.tags, teamIds: row.team_ids ?? [], version: row.update_date });
    }
  }, (e) => deps.logger.warn({ err: e }, "tags.changed publish failed"));
}

/** New files (uploads): their tag sets and team ids as written in `trx`, announced once it commits. */
export async function announceNewFileTags(trx: Knex.Transaction, deps: { bus: EventBus; logger: Logger }, fileIds: readonly string[]): Promise<void> {
  if (fileIds.length === 0) return;
  const rows: TaggedFileRow[] = await trx("file").whereIn("id", [...fileIds]).select(TAGGED_FILE_COLUMNS);
  publishFileTagsAfterCommit(trx, deps, rows.filter((r) => r.tags.length > 0));
}

export async function publishFilesUntagged(bus: EventBus, customerId: number, fileIds: string[]): Promise<void> {
  for (const resourceId of fileIds) await publishTaggedResourceDeleted(bus, { customerId, tagType: "FILE", resourceId });
}
