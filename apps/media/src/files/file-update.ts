// PUT /api/file/{fileId} and POST /api/file/rename.
import type { HandlerContext } from "@connectrpc/connect";
import { requireAuth } from "@signage/auth";
import type { File, FileUpdate } from "@signage/contracts/signage/media/v1/file_pb";
import { checkFileName, checkValidity, cleanTags, requireFile } from "./file-repository.js";
import { readFile } from "./file-list.js";
import type { FileDeps } from "./file-deps.js";
import { enqueueFileTags, TAGGED_FILE_COLUMNS, type TaggedFileRow } from "./file-tag-events.js";

const num = (v: string | number | null) => (v === null ? null : Number(v));

/**
 * Sets the fields present in the body. `tags` is a repeated field, so an empty array cannot be
 * told from an absent one: it leaves the tags as they are (clear them with tags/set).
 */
export async function updateFile(ctx: HandlerContext, deps: FileDeps, fileId: string, update: FileUpdate | undefined): Promise<File> {
  const auth = requireAuth(ctx);
  await deps.knex.transaction(async (trx) => {
    const row = await requireFile(trx, auth.scope, fileId, true);
    await deps.teams.assertWritable(trx, auth, "file", [row.id]);
    const columns: Record<string, unknown> = {};
    if (update?.name !== undefined) columns.name = checkFileName(update.name);
    const validFrom = update?.validFrom !== undefined ? Number(update.validFrom) : num(row.valid_from);
    const validTo = update?.validTo !== undefined ? Number(update.validTo) : num(row.valid_to);
    checkValidity(validFrom, validTo);
    if (update?.validFrom !== undefined) columns.valid_from = validFrom;
    if (update?.validTo !== undefined) columns.valid_to = validTo;
    if (update?.tags.length) columns.tags = cleanTags(update.tags);
    if (update?.metaData !== undefined) columns.meta_data = JSON.stringify(update.metaData);
    if (update?.muted !== undefined) columns.muted = update.muted;
    if (Object.keys(columns).length) {
      const updated = await trx("file").where({ id: row.id }).update({ ...columns, update_date: trx.fn.now() }, TAGGED_FILE_COLUMNS);
      if (columns.tags) await enqueueFileTags(trx, deps.outbox, updated as TaggedFileRow[]);
    }
  });
  return readFile(ctx, deps, fileId);
}

export async function renameFile(ctx: HandlerContext, deps: FileDeps, fileId: string, newName: string): Promise<void> {
  const auth = requireAuth(ctx);
  const name = checkFileName(newName);
  await deps.knex.transaction(async (trx) => {
    const row = await requireFile(trx, auth.scope, fileId, true);
    await deps.teams.assertWritable(trx, auth, "file", [row.id]);
    await trx("file").where({ id: row.id }).update({ name, update_date: trx.fn.now() });
  });
}
