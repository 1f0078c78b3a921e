// "Bulk operations act on the files matched by search": tags add/remove/set and
// the validity window, each one UPDATE statement (atomic) inside one tenant.
// Matched = what the caller's file list with that search shows (tenant, team
// visibility, a filtered folder's quick filter); a match the caller only reads
// through its teams refuses the whole call (403 team.error.readOnly), as
// removeBatch and moveBatchToFolder do.
import { Code, type HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import { applyScope, FULL_TEAM_ACCESS, requireAuth, serviceError, teamReadOnlyHook, teamVisibilityHook, tenantScope, type AuthContext, type TeamAccess } from "@signage/auth";
import { missingParameter, unknownQuickFilter, type Peers } from "@signage/runtime";
import { applyCompiledFilter, applyFilter, compileFilter, parseFilter } from "@signage/query";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
import { checkCallerSearch, ownFilterFolderId, resolveFilteredFolderSearch } from "../folders/filtered-folder-search.js";
import { fileResource, teamRestrictedFileResource } from "./file-resource.js";
import { checkValidity } from "./file-repository.js";
import { checkTags } from "./file-tags.js";
import { batchTenant } from "./caller.js";
import { enqueueFileTags, TAGGED_FILE_COLUMNS, type TaggedFileRow } from "./file-tag-events.js";
import type { FileDeps } from "./file-deps.js";
import { nextFileUpdateDate } from "./next-update-date.js";
import { requireKnownCustomer } from "./core-customer.js";

export type TagOperation = "add" | "remove" | "set";
/** `peers`: core, asked whether a customer the replica does not know exists. */
export type BulkDeps = Pick<FileDeps, "knex" | "outbox" | "teams" | "storedFolders" | "quickFilters" | "logger"> & { peers?: Peers };

interface BulkTarget {
  auth: AuthContext;
  customerId: number;
  access: TeamAccess;
  search: string | undefined;
  /** A filtered folder's quick filter standing for `fileFolderId=<it>` in search, as in the file list; blank = no condition. */
  quickFilter?: string;
}

const FILE_COLUMNS = { column: (column: string) => `file.${column}` };

/**
 * The caller's batch tenant, team access and search, with a filtered folder in search resolved
 * exactly as the file list resolves it (file-list.ts): its quick filter instead of the folder
 * column, applied when the caller's teams show the folder, else checked as one the caller named.
 * Runs before the transaction: the quick filter is compiled by core over RPC.
 */
async function bulkTarget(deps: BulkDeps, ctx: HandlerContext, search: string | undefined): Promise<BulkTarget> {
  const auth = requireAuth(ctx);
  const customerId = batchTenant(auth);
  // A customer an ADMIN or network owner names that does not exist: 404, not a 204 that changed nothing.
  if (customerId !== auth.caller.customerId) await requireKnownCustomer(ctx, deps, customerId);
  const [filtered, teams] = await Promise.all([
    resolveFilteredFolderSearch(deps.knex, deps.storedFolders, tenantScope(customerId), { search } as ListQuery),
    deps.teams.access?.(auth),
  ]);
  const access = teams ?? FULL_TEAM_ACCESS;
  checkCallerSearch(filtered, searchedResource(access), "search");
  const target: BulkTarget = { auth, customerId, access, search: filtered.query?.search };
  const quickFilterId = filtered.query?.quickFilterId;
  if (quickFilterId) {
    if (!deps.quickFilters) throw unknownQuickFilter(quickFilterId);
    target.quickFilter = await deps.quickFilters.resolve(ctx, quickFilterId, { filteredFolderId: ownFilterFolderId(filtered, teams) });
  }
  return target;
}

/** As the file list searches for this caller (file-resource.ts: a restricted caller's duplicateDetails are no search term). */
function searchedResource(access: TeamAccess) {
  return access.kind === "full" ? fileResource : teamRestrictedFileResource;
}

/** `file` rows of the batch tenant the caller sees, matched by `search` (blank = all of them). */
function matched(db: Knex | Knex.Transaction, target: BulkTarget): Knex.QueryBuilder {
  const qb = db("file");
  applyScope(qb, tenantScope(target.customerId), "file.customer_id");
  teamVisibilityHook(target.access)(qb, FILE_COLUMNS);
  const resource = searchedResource(target.access);
  if (target.search?.trim()) applyFilter(qb, resource, target.search, { parameter: "search" });
  // ANDed with search, its subqueries aliased apart from search's (as planList does).
  if (target.quickFilter?.trim()) {
    applyCompiledFilter(qb, compileFilter(resource, parseFilter(target.quickFilter, { parameter: "quickFilter" }), { parameter: "quickFilter", aliasPrefix: "_q" }));
  }
  return qb;
}

/** A read-only match refuses the call with the team port's own error (as removeBatch / move). */
async function refuseReadOnly(trx: Knex.Transaction, deps: BulkDeps, target: BulkTarget): Promise<void> {
  if (target.access.kind === "full") return;
  const readOnly = teamReadOnlyHook(target.access)(FILE_COLUMNS);
  const row = await matched(trx, target).whereRaw(readOnly.sql, readOnly.bindings as Knex.RawBinding[]).first("file.id");
  if (row) await deps.teams.assertWritable(trx, target.auth, "file", [row.id as string]);
}

const TAG_SQL: Record<TagOperation, string> = {
  // Appends the new tags, keeping the existing order and no duplicates.
  add: "array(select t from unnest(tags || ?::text[]) with ordinality as u(t, n) group by t order by min(n))",
  remove: "array(select t from unnest(tags) with ordinality as u(t, n) where t <> all(?::text[]) order by n)",
  set: "?::text[]",
};

/**
 * "Bulk operations act on the files matched by search": a write to every file of the customer
 * must say so (search=, blank). A request without the parameter (a misspelt name the edge
 * ignores, `serach=...`) would otherwise rewrite them all. Checked first: it is the call's subject.
 */
function requireSearch(search: string | undefined): void {
  if (search === undefined) throw missingParameter("search", "Query parameter 'search' is required: it names the files (search= with no value: every file of the customer)");
}

/** Returns the number of files changed. */
export async function bulkTags(deps: BulkDeps, ctx: HandlerContext, operation: TagOperation, search: string | undefined, tags: readonly string[]): Promise<number> {
  requireSearch(search);
  // Removing is not format-checked: it must be able to clear tags written before the rule was enforced.
  const cleaned = operation === "remove" ? [...new Set(tags)] : checkTags(tags);
  if (operation !== "set" && cleaned.length === 0) {
    throw serviceError(Code.InvalidArgument, "file.error.tagsRequired", "The body must be a non-empty array of tags", { parameter: "tags" });
  }
  const target = await bulkTarget(deps, ctx, search);
  return deps.knex.transaction(async (trx) => {
    await refuseReadOnly(trx, deps, target);
    const rows = await matched(trx, target).update({ tags: trx.raw(TAG_SQL[operation], [cleaned]), update_date: nextFileUpdateDate(trx) }, TAGGED_FILE_COLUMNS);
    await enqueueFileTags(trx, deps.outbox, rows as TaggedFileRow[]);
    return rows.length;
  });
}

/**
 * Sets the given bounds of every matched file; an omitted bound is unchanged (as in
 * PUT /api/file/{id}), so it must not end up before the new one. Returns the number changed.
 */
export async function bulkValidity(deps: BulkDeps, ctx: HandlerContext, search: string | undefined, validFrom: number | undefined, validTo: number | undefined): Promise<number> {
  requireSearch(search);
  // Neither bound: a call that could change nothing is a client mistake, not a silent 204.
  if (validFrom === undefined && validTo === undefined) {
    throw serviceError(Code.InvalidArgument, "file.error.validityRequired", "At least one of validFrom and validTo is required", { parameters: ["validFrom", "validTo"] });
  }
  checkValidity(validFrom, validTo);
  const target = await bulkTarget(deps, ctx, search);
  const columns: Record<string, number> = {};
  if (validFrom !== undefined) columns.valid_from = validFrom;
  if (validTo !== undefined) columns.valid_to = validTo;
  return deps.knex.transaction(async (trx): Promise<number> => {
    await refuseReadOnly(trx, deps, target);
    // A file whose kept bound clashes with the new one fails the whole call (400 file.error.invalidValidity).
    const clashing =
      validTo === undefined ? matched(trx, target).where("file.valid_to", "<", validFrom!)
      : validFrom === undefined ? matched(trx, target).where("file.valid_from", ">", validTo)
      : undefined;
    const clash = await clashing?.first("file.id", "file.valid_from", "file.valid_to");
    if (clash) checkValidity(validFrom ?? Number(clash.valid_from), validTo ?? Number(clash.valid_to));
    return Number(await matched(trx, target).update({ ...columns, update_date: nextFileUpdateDate(trx) }));
  });
}
