import type { FilterNode } from "../filter/ast.js";
import { parseFilter } from "../filter/parse-filter.js";
import type { ResourceRegistry } from "../registry/resource.js";
import type { CompiledFilter } from "../resolve/compiled-filter.js";
import { compileFilter } from "../resolve/compile-filter.js";
import type { ListParams } from "./list-params.js";
import { resolvePaging, type PagingOptions } from "./paging.js";
import { parseSelect } from "./parse-select.js";
import { resolveSelect } from "./resolve-select.js";
import type { Selection } from "./selection.js";
import { resolveSort, type SortKey } from "./sort.js";
import { parseBooleanParameter, parseTeamIds, teamSelectionFilter } from "./team-selection.js";

const PLAN = Symbol("ListPlan");

/** A list request checked against the resource; runList executes it. */
export interface ListPlan {
  readonly [PLAN]: true;
  readonly resource: ResourceRegistry;
  readonly page: number;
  readonly size: number;
  readonly search: FilterNode | null;
  readonly quickFilter: FilterNode | null;
  /** search, quick filter and team selection, all ANDed. */
  readonly filters: readonly CompiledFilter[];
  readonly sort: readonly SortKey[];
  readonly selection: Selection;
  readonly includeReadOnlyInfo: boolean;
}

export function isListPlan(value: unknown): value is ListPlan {
  return typeof value === "object" && value !== null && (value as ListPlan)[PLAN] === true;
}

/**
 * Validates every common list parameter up front, so a bad request fails with a
 * ListQueryError (HTTP 400) before any SQL runs.
 */
export interface PlanOptions extends PagingOptions {
  /**
   * What the endpoint calls its `search` and `select` (e.g. the file summary's fileSearch,
   * folderSelect): errors name the parameter the caller sent. Keys stay search.error.* / select.error.*.
   */
  readonly names?: { readonly search?: string; readonly select?: string };
}

export function planList(resource: ResourceRegistry, params: ListParams = {}, options: PlanOptions = {}): ListPlan {
  const searchName = options.names?.search ?? "search";
  const selectName = options.names?.select ?? "select";
  if (resource.idField === null) throw new Error(`resource ${resource.name} has no id, so it cannot be listed`);
  const { page, size } = resolvePaging(params.page, params.size, options);

  const search = isBlank(params.search) ? null : parseFilter(params.search!, { parameter: searchName });
  const quickFilter =
    params.quickFilter === undefined || params.quickFilter === null || isBlank(params.quickFilter)
      ? null
      : typeof params.quickFilter === "string"
        ? parseFilter(params.quickFilter, { parameter: "quickFilter" })
        : params.quickFilter;
  const teamIds = parseTeamIds(params.selectTeamIds);
  const teamSelection = teamSelectionFilter(resource, teamIds, parseBooleanParameter("includeResourcesWithoutTeam", params.includeResourcesWithoutTeam), params.selectTeamIds);

  const filters: CompiledFilter[] = [];
  if (search) filters.push(compileFilter(resource, search, { parameter: searchName, aliasPrefix: "_f" }));
  if (quickFilter) filters.push(compileFilter(resource, quickFilter, { parameter: "quickFilter", aliasPrefix: "_q" }));
  if (teamSelection) filters.push(compileFilter(resource, teamSelection, { parameter: "search", aliasPrefix: "_t" }));

  const sortEntries = (params.sort === undefined ? [] : typeof params.sort === "string" ? [params.sort] : [...params.sort]).filter(
    (entry) => !isBlank(entry),
  );
  const sort = resolveSort(resource, sortEntries.length > 0 ? sortEntries : resource.defaultSort);

  const selectText = isBlank(params.select) ? null : params.select!;
  const selection = resolveSelect(resource, selectText === null ? null : parseSelect(selectText, selectName), selectText ?? "", { parameter: selectName });

  return Object.freeze({
    [PLAN]: true as const,
    resource,
    page,
    size,
    search,
    quickFilter,
    filters,
    sort,
    selection,
    includeReadOnlyInfo: parseBooleanParameter("includeReadOnlyInfo", params.includeReadOnlyInfo),
  });
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}
