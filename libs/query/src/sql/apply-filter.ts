import type { Knex } from "knex";
import type { FilterNode } from "../filter/ast.js";
import { parseFilter } from "../filter/parse-filter.js";
import type { ResourceRegistry } from "../registry/resource.js";
import { compileFilter } from "../resolve/compile-filter.js";
import { applyCompiledFilter } from "./apply-compiled-filter.js";

/**
 * Adds a search filter to any query on the resource's table (bulk operations such as "tag
 * all devices matching search"). The query must name the table by `resource.alias` (the
 * table's base name by default, i.e. `knex("device")`). Throws ListQueryError on bad input.
 */
export function applyFilter(
  qb: Knex.QueryBuilder,
  resource: ResourceRegistry,
  filter: FilterNode | string,
  options: { readonly parameter?: "search" | "quickFilter" } = {},
): Knex.QueryBuilder {
  const parameter = options.parameter ?? "search";
  const node = typeof filter === "string" ? parseFilter(filter, { parameter }) : filter;
  return applyCompiledFilter(qb, compileFilter(resource, node, { parameter }));
}
