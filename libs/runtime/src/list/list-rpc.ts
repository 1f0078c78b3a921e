// Every list RPC in one call: the common list parameters (ListQuery) planned
// by libs/query, the caller's tenant scope applied as the mandatory scope
// hook, rows projected and turned into messages, and the Page facts.
import { getOption, type DescMessage, type DescMethod, type MessageShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import { applyScope, teamReadOnlyHook, teamVisibilityHook, type Scope, type TeamAccess, type TeamColumns } from "@signage/auth";
import { planList, runList, type PlanOptions, type ResourceRegistry } from "@signage/query";
import { max_page_size } from "@signage/contracts/signage/options/v1/options_pb";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
import { rowToMessage } from "./row-to-message.js";
import { quickFilterNotApplied, type QuickFilterResolver } from "../quick-filters/resolver.js";

export interface ListRpcOptions<Desc extends DescMessage> {
  knex: Knex;
  resource: ResourceRegistry;
  message: Desc;
  query: ListQuery | undefined;
  scope: Scope;
  /** Service joins or conditions, applied to the page and the count. */
  extend?: (qb: Knex.QueryBuilder) => void;
  /** Resolves `quickFilterId` (e.g. coreQuickFilters(ctx.peers, "FILE")); without it the parameter is refused. */
  quickFilters?: QuickFilterResolver;
  /** `quickFilterId` is this filtered folder's own filter (the service put it there), not one the caller named. */
  quickFilterOfFolder?: string;
  /**
   * Team visibility of a team-enabled resource (its table has `team_ids`): the
   * caller's TeamAccess (`createTeamAccessResolver` in ../teams). Adds the
   * restriction to the scope and computes `readOnly` for includeReadOnlyInfo.
   */
  teams?: TeamAccess | { access: TeamAccess; columns?: TeamColumns };
  /** What the endpoint calls its search and select, when not `search` / `select` (errors name these). */
  names?: PlanOptions["names"];
}

/**
 * The fields a page carries, when `select` left some out: every row has the same keys
 * (the published JSON names), so the first row tells. Empty when all are present.
 */
function selectedFields(desc: DescMessage, row: Record<string, unknown> | undefined): string[] {
  if (!row) return [];
  const keys = desc.fields.map((f) => f.jsonName).filter((name) => name in row);
  return keys.length === desc.fields.length ? [] : keys;
}

// getOption decodes the method's options on every call; the answer never changes.
const maxPageSizes = new WeakMap<DescMethod, number | undefined>();
/** The method's `max_page_size` option (undefined: the library's cap), read once per method. */
export function maxPageSizeOf(method: DescMethod): number | undefined {
  if (!maxPageSizes.has(method)) maxPageSizes.set(method, getOption(method, max_page_size) || undefined);
  return maxPageSizes.get(method);
}

export async function listRpc<Desc extends DescMessage>(ctx: HandlerContext, o: ListRpcOptions<Desc>) {
  const q = o.query;
  let quickFilter: string | undefined;
  if (q?.quickFilterId) {
    // A list that does not apply quick filters knows no id that could name one.
    if (!o.quickFilters) throw quickFilterNotApplied(q.quickFilterId);
    quickFilter = await o.quickFilters.resolve(ctx, q.quickFilterId, { filteredFolderId: o.quickFilterOfFolder });
  }
  const maxSize = maxPageSizeOf(ctx.method);
  const plan = planList(
    o.resource,
    {
      page: q?.page,
      size: q?.size,
      sort: q?.sort,
      search: q?.search,
      quickFilter,
      select: q?.select,
      selectTeamIds: q?.selectTeamIds,
      includeResourcesWithoutTeam: q?.includeResourcesWithoutTeam,
      includeReadOnlyInfo: q?.includeReadOnlyInfo,
    },
    { maxSize, names: o.names },
  );
  const tenantColumn = o.resource.tenantColumn;
  if (!tenantColumn) throw new TypeError(`resource ${o.resource.name} declares no tenantColumn`);
  const teams = o.teams && "access" in o.teams ? o.teams : o.teams ? { access: o.teams as TeamAccess } : undefined;
  const visibility = teams ? teamVisibilityHook(teams.access, teams.columns) : undefined;
  const result = await runList(o.knex, plan, {
    scope: (qb, target) => {
      applyScope(qb, o.scope, target.column(tenantColumn));
      visibility?.(qb, target);
    },
    extend: o.extend,
    readOnly: teams ? teamReadOnlyHook(teams.access, teams.columns) : undefined,
  });
  return {
    content: result.content.map((row) => rowToMessage(o.message, row)) as MessageShape<Desc>[],
    page: { ...result.page, totalElements: BigInt(result.page.totalElements), selectedFields: selectedFields(o.message, result.content[0]) },
  };
}
