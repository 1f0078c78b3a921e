import type { Knex } from "knex";
import type { Scope } from "./scope.js";

/**
 * The ONE place a tenant scope becomes SQL: global adds no clause, a tenant list adds
 * `column IN (...)`. Takes a Scope (never optional), so an unscoped query cannot be built here.
 */
export function applyScope<QB extends Knex.QueryBuilder>(qb: QB, scope: Scope, column = "customer_id"): QB {
  if (scope.kind === "global") return qb;
  return qb.whereIn(column, [...scope.customerIds]) as QB;
}
