// "Bulk operations act on the files matched by search": tags add/remove/set and
// the validity window, each one UPDATE statement (atomic) inside one tenant.
import { Code } from "@connectrpc/connect";
import type { Knex } from "knex";
import { applyScope, serviceError, tenantScope, type AuthContext } from "@signage/auth";
import { applyFilter } from "@signage/query";
import { fileResource } from "./file-resource.js";
import { checkValidity, cleanTags } from "./file-repository.js";
import { writeTenant } from "./caller.js";
import { enqueueFileTags, TAGGED_FILE_COLUMNS, type TaggedFileRow } from "./file-tag-events.js";
import type { FileDeps } from "./file-deps.js";

export type TagOperation = "add" | "remove" | "set";

/** `file` rows of the caller's write tenant matched by `search` (blank = every file of the tenant). */
function matched(knex: Knex | Knex.Transaction, auth: AuthContext, search: string | undefined): Knex.QueryBuilder {
  const qb = knex("file");
  applyScope(qb, tenantScope(writeTenant(auth)), "file.customer_id");
  if (search?.trim()) applyFilter(qb, fileResource, search, { parameter: "search" });
  return qb;
}

const TAG_SQL: Record<TagOperation, string> = {
  // Appends the new tags, keeping the existing order and no duplicates.
  add: "array(select t from unnest(tags || ?::text[]) with ordinality as u(t, n) group by t order by min(n))",
  remove: "array(select t from unnest(tags) with ordinality as u(t, n) where t <> all(?::text[]) order by n)",
  set: "?::text[]",
};

/** Returns the number of files changed. */
export async function bulkTags(knex: Knex, deps: Pick<FileDeps, "outbox">, auth: AuthContext, operation: TagOperation, search: string | undefined, tags: readonly string[]): Promise<number> {
  const cleaned = cleanTags(tags);
  if (operation !== "set" && cleaned.length === 0) {
    throw serviceError(Code.InvalidArgument, "file.error.tagsRequired", "The body must be a non-empty array of tags", { parameter: "tags" });
  }
  return knex.transaction(async (trx) => {
    const rows = await matched(trx, auth, search).update({ tags: trx.raw(TAG_SQL[operation], [cleaned]), update_date: trx.fn.now() }, TAGGED_FILE_COLUMNS);
    await enqueueFileTags(trx, deps.outbox, rows as TaggedFileRow[]);
    return rows.length;
  });
}

export async function bulkValidity(knex: Knex, auth: AuthContext, search: string | undefined, validFrom: number | undefined, validTo: number | undefined): Promise<number> {
  checkValidity(validFrom, validTo);
  return matched(knex, auth, search).update({ valid_from: validFrom ?? null, valid_to: validTo ?? null, update_date: knex.fn.now() });
}
