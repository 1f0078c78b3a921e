// "Filtered folders (fileFolderType 2) list the files their quick filter selects":
// a file list asking for `fileFolderId=<filtered folder>` (at the top level of
// `search`) is answered with the folder's quick filter instead of the folder
// column, which holds no files for a virtual folder; the folder's tenant stays
// a condition.
import { Code } from "@connectrpc/connect";
import type { Knex } from "knex";
import { serviceError, visibleThroughTeamIds, type Scope, type TeamAccess } from "@signage/auth";
import { andFilters, compileFilter, parseFilter, printFilter, type FilterNode, type ResourceRegistry } from "@signage/query";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
import { customerIdOf, findFolder } from "./folder-repository.js";
import { FOLDER_TYPE_FILTERED } from "./folder-row.js";
import type { StoredFolderMemo } from "./stored-folder-memo.js";

/** The list's query, and when a filtered folder put its own filter there, that folder (its teams decide whether it applies). */
export interface FilteredFolderSearch {
  query: ListQuery | undefined;
  folder?: { id: string; teamIds: readonly string[] };
  /** The search as the caller wrote it, when the folder's filter replaced a term of it (checkCallerSearch). */
  callerSearch?: FilterNode;
}

export async function resolveFilteredFolderSearch(knex: Knex, storedFolders: StoredFolderMemo, scope: Scope, query: ListQuery | undefined): Promise<FilteredFolderSearch> {
  const unchanged = { query };
  if (!query?.search?.includes("fileFolderId")) return unchanged;
  let tree: FilterNode;
  try {
    tree = parseFilter(query.search, { parameter: "search" });
  } catch {
    return unchanged; // the list reports the syntax error with its position
  }
  const terms = tree.kind === "and" ? [...tree.children] : [tree];
  const index = terms.findIndex((t) => t.kind === "comparison" && t.field === "fileFolderId" && (t.operator === "=" || t.operator === ":") && t.value.kind === "text");
  if (index < 0) return unchanged;
  const term = terms[index] as Extract<FilterNode, { kind: "comparison" }>;
  const folderId = (term.value as { text: string }).text;
  if (storedFolders.isStored(folderId.toLowerCase())) return unchanged;
  const folder = await findFolder(knex, scope, folderId);
  if (!folder) return unchanged;
  if (folder.file_folder_type !== FOLDER_TYPE_FILTERED) {
    storedFolders.rememberStored(folder.id);
    return unchanged;
  }
  if (query.quickFilterId && query.quickFilterId !== folder.quick_filter_id) {
    throw serviceError(Code.InvalidArgument, "fileFolder.error.quickFilterConflict", "A filtered folder's files come from its own quick filter; quickFilterId cannot be combined with it", { fileFolderId: folder.id });
  }
  // The folder shows its own tenant's files, also to a caller whose scope spans tenants (ADMIN, network owner).
  terms.splice(index, 1, parseFilter(`customerId=${customerIdOf(folder)}`));
  const rest = andFilters(...terms);
  return {
    query: { ...query, search: rest ? printFilter(rest) : undefined, quickFilterId: folder.quick_filter_id ?? undefined } as ListQuery,
    folder: { id: folder.id, teamIds: (folder as { team_ids?: string[] }).team_ids ?? [] },
    callerSearch: tree,
  };
}

/**
 * A search rewritten for a filtered folder is checked as the caller wrote it, before the rewrite
 * runs: a mistake in another term of it is then reported with its position in the text the caller
 * sent (document 2 "Filter language"), not in the reprinted one. `resource` is the one the list
 * searches for this caller; `parameter` what the endpoint calls its search (fileSearch in the summary).
 */
export function checkCallerSearch(filtered: FilteredFolderSearch, resource: ResourceRegistry, parameter: string): void {
  if (filtered.callerSearch) compileFilter(resource, filtered.callerSearch, { parameter });
}

/**
 * The filtered folder whose own filter the quick filter is, when the caller's teams show that
 * folder (its filter then applies whether or not they show the filter itself); undefined when
 * they hide it, so its filter is checked like one the caller named. `teams` undefined: no team
 * restriction. One rule for the file list and the bulk operations.
 */
export function ownFilterFolderId(filtered: FilteredFolderSearch, teams: TeamAccess | undefined): string | undefined {
  const folder = filtered.folder;
  return folder !== undefined && (!teams || visibleThroughTeamIds(teams, folder.teamIds)) ? folder.id : undefined;
}
