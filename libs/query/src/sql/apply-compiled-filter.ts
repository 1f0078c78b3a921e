import type { Knex } from "knex";
import type { CompiledFilter, ExistsHop } from "../resolve/compiled-filter.js";
import type { SqlFragment } from "./fragment.js";

type Joiner = "and" | "or";

/**
 * Adds the filter to the query, ANDed with whatever the query already has. Every OR of the
 * filter lands in its own parenthesised group, and every predicate template is atomic, so
 * nothing in the filter can widen the conditions next to it (scope, other filters).
 */
export function applyCompiledFilter(qb: Knex.QueryBuilder, filter: CompiledFilter): Knex.QueryBuilder {
  if (filter.kind === "and") {
    for (const child of filter.children) addFilter(qb, child, "and");
  } else {
    addFilter(qb, filter, "and");
  }
  return qb;
}

function addFilter(qb: Knex.QueryBuilder, filter: CompiledFilter, joiner: Joiner): void {
  switch (filter.kind) {
    case "predicate":
      addRaw(qb, filter.predicate, joiner);
      return;
    case "and":
    case "or": {
      const group = function (this: Knex.QueryBuilder) {
        for (const child of filter.children) addFilter(this, child, filter.kind as Joiner);
      };
      if (joiner === "and") qb.where(group);
      else qb.orWhere(group);
      return;
    }
    case "exists": {
      const subquery = function (this: Knex.QueryBuilder) {
        buildExists(this, filter.hops, 0, filter.predicate);
      };
      if (joiner === "and") (filter.negated ? qb.whereNotExists(subquery) : qb.whereExists(subquery));
      else (filter.negated ? qb.orWhereNotExists(subquery) : qb.orWhereExists(subquery));
      return;
    }
  }
}

function buildExists(qb: Knex.QueryBuilder, hops: readonly ExistsHop[], index: number, predicate: SqlFragment | null): void {
  const hop = hops[index];
  qb.from(`${hop.table} as ${hop.alias}`).whereRaw("?? = ??", [`${hop.alias}.${hop.targetColumn}`, `${hop.parentAlias}.${hop.localColumn}`]);
  if (index + 1 < hops.length) {
    qb.whereExists(function (this: Knex.QueryBuilder) {
      buildExists(this, hops, index + 1, predicate);
    });
  } else if (predicate) {
    addRaw(qb, predicate, "and");
  }
}

function addRaw(qb: Knex.QueryBuilder, predicate: SqlFragment, joiner: Joiner): void {
  const bindings = predicate.bindings as Knex.RawBinding[];
  if (joiner === "and") qb.whereRaw(predicate.sql, bindings);
  else qb.orWhereRaw(predicate.sql, bindings);
}
