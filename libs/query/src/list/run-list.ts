import type { Knex } from "knex";
import { applyCompiledFilter } from "../sql/apply-compiled-filter.js";
import { selectListRaw } from "../sql/select-list.js";
import { selectFragments } from "../sql/select-sql.js";
import { pageInfo, totalFromPage, type ListResult } from "./page.js";
import { isListPlan, type ListPlan } from "./plan-list.js";
import { projectRow, type Row } from "./project-row.js";
import { requireScopeHook, scopeTarget, type ListScope, type ReadOnlyHook } from "./scope.js";

export interface RunListOptions {
  /** Required: tenant scope and team visibility. A list cannot run without it. */
  readonly scope: ListScope;
  /**
   * Extra conditions of the service (where, whereExists, ...), applied to the page and the
   * count query inside their own parenthesised group, so an orWhere cannot escape the scope.
   */
  readonly extend?: (qb: Knex.QueryBuilder) => void;
  /** `readOnly` per row when includeReadOnlyInfo is asked; without it readOnly is false. */
  readonly readOnly?: ReadOnlyHook;
}

const READ_ONLY_COLUMN = "__readOnly";

/**
 * Runs a planned list: one page query, plus a COUNT whose answer is used only when the page
 * cannot tell the total (a short page is the last one). Works on a Knex instance or inside a
 * transaction (where the COUNT runs only when needed, after the page).
 */
export async function runList(knex: Knex | Knex.Transaction, plan: ListPlan, options: RunListOptions): Promise<ListResult> {
  if (!isListPlan(plan)) throw new TypeError("runList needs a plan made by planList");
  const scope = requireScopeHook(options?.scope);
  const resource = plan.resource;
  const target = scopeTarget(resource);
  const from = resource.table === resource.alias ? resource.table : `${resource.table} as ${resource.alias}`;

  const filtered = (): Knex.QueryBuilder => {
    const qb = knex.queryBuilder().from(from);
    qb.where(function (this: Knex.QueryBuilder) {
      scope(this, target);
    });
    for (const filter of plan.filters) applyCompiledFilter(qb, filter);
    const extend = options.extend;
    if (extend) {
      qb.where(function (this: Knex.QueryBuilder) {
        extend(this);
      });
    }
    return qb;
  };

  const pageQuery = filtered();
  const columns = selectFragments(plan.selection, resource.alias);
  if (columns.length > 0) pageQuery.select(selectListRaw(knex, columns));
  if (plan.includeReadOnlyInfo && options.readOnly) {
    const readOnly = options.readOnly(target);
    pageQuery.select(knex.raw(`(${readOnly.sql}) as ??`, [...readOnly.bindings, READ_ONLY_COLUMN] as Knex.RawBinding[]));
  }
  for (const key of plan.sort) {
    pageQuery.orderByRaw(`${key.expression.sql} ${key.direction}`, key.expression.bindings as Knex.RawBinding[]);
  }
  pageQuery.limit(plan.size).offset(plan.page * plan.size);

  // Outside a transaction the COUNT runs beside the page on a second connection: a full page
  // then waits for the slower of the two, not their sum. A short page drops the count's answer.
  const counting = knex.isTransaction ? undefined : countOf(filtered());
  counting?.catch(() => undefined);
  const rows = (await pageQuery) as Row[];
  const content = rows.map((row) => {
    const projected = projectRow(plan.selection, row);
    // Read-only through the caller's teams, or for a reason of the resource's own (a computed readOnly, e.g. a quick filter in use).
    if (plan.includeReadOnlyInfo) projected.readOnly = row[READ_ONLY_COLUMN] === true || projected.readOnly === true;
    return projected;
  });

  let total = totalFromPage(plan.page, plan.size, rows.length);
  if (total === null) total = await (counting ?? countOf(filtered()));
  return { content, page: pageInfo(plan.page, plan.size, content.length, total) };
}

async function countOf(query: Knex.QueryBuilder): Promise<number> {
  const [{ total }] = (await query.count({ total: "*" })) as { total: string | number }[];
  return Number(total);
}
