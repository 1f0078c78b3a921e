// PUT /api/file/{fileId} and POST /api/file/rename.
import { Code, type HandlerContext } from "@connectrpc/connect";
import type { Value } from "@bufbuild/protobuf/wkt";
import { requireAuth, serviceError } from "@signage/auth";
import type { File, FileUpdate } from "@signage/contracts/signage/media/v1/file_pb";
import { checkFileName, checkValidity, requireFile } from "./file-repository.js";
import { checkTags } from "./file-tags.js";
import { readFile } from "./file-list.js";
import type { FileDeps } from "./file-deps.js";
import { enqueueFileTags, TAGGED_FILE_COLUMNS, type TaggedFileRow } from "./file-tag-events.js";
import { nextFileUpdateDate } from "./next-update-date.js";

const num = (v: string | number | null) => (v === null ? null : Number(v));

/** A validity bound of the body: undefined = omitted (unchanged), null = JSON null (clear), else Unix ms. */
function boundOf(value: Value | undefined, parameter: "validFrom" | "validTo"): number | null | undefined {
  if (value === undefined) return undefined;
  const { kind } = value;
  if (kind.case === "nullValue") return null;
  // int64 in JSON may arrive as a number or as a decimal string.
  const ms = kind.case === "numberValue" ? kind.value : kind.case === "stringValue" && /^-?\d+$/.test(kind.value.trim()) ? Number(kind.value) : NaN;
  if (!Number.isSafeInteger(ms)) {
    throw serviceError(Code.InvalidArgument, "file.error.invalidValidity", `${parameter} must be an integer (Unix ms) or null`, { parameter });
  }
  return ms;
}

/**
 * Sets the fields present in the body; an omitted field is unchanged. `validFrom: null`
 * / `validTo: null` clear that bound, `tags: []` clears the tags (file.proto FileUpdate).
 */
export async function updateFile(ctx: HandlerContext, deps: FileDeps, fileId: string, update: FileUpdate | undefined): Promise<File> {
  const auth = requireAuth(ctx);
  const sentFrom = boundOf(update?.validFrom, "validFrom");
  const sentTo = boundOf(update?.validTo, "validTo");
  const tags = update?.tags ? checkTags(update.tags.values.map((v) => v.kind.value)) : undefined;
  await deps.knex.transaction(async (trx) => {
    const row = await requireFile(trx, auth.scope, fileId, true);
    await deps.teams.assertWritable(trx, auth, "file", [row.id]);
    const columns: Record<string, unknown> = {};
    if (update?.name !== undefined) columns.name = checkFileName(update.name);
    checkValidity(sentFrom !== undefined ? sentFrom : num(row.valid_from), sentTo !== undefined ? sentTo : num(row.valid_to));
    if (sentFrom !== undefined) columns.valid_from = sentFrom;
    if (sentTo !== undefined) columns.valid_to = sentTo;
    if (tags !== undefined) columns.tags = tags;
    if (update?.metaData !== undefined) columns.meta_data = JSON.stringify(update.metaData);
    if (update?.muted !== undefined) columns.muted = update.muted;
    if (Object.keys(columns).length) {
      const updated = await trx("file").where({ id: row.id }).update({ ...columns, update_date: nextFileUpdateDate(trx) }, TAGGED_FILE_COLUMNS);
      if (columns.tags) await enqueueFileTags(trx, deps.outbox, updated as TaggedFileRow[]);
    }
  });
  return readFile(ctx, deps, fileId);
}

export async function renameFile(ctx: HandlerContext, deps: FileDeps, fileId: string, newName: string): Promise<void> {
  const auth = requireAuth(ctx);
  const name = checkFileName(newName, "newName");
  await deps.knex.transaction(async (trx) => {
    const row = await requireFile(trx, auth.scope, fileId, true);
    await deps.teams.assertWritable(trx, auth, "file", [row.id]);
    await trx("file").where({ id: row.id }).update({ name, update_date: nextFileUpdateDate(trx) });
  });
}
