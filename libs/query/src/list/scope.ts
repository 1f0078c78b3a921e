import type { Knex } from "knex";
import type { ResourceRegistry } from "../registry/resource.js";
import { compileFilter } from "../resolve/compile-filter.js";
import { applyCompiledFilter } from "../sql/apply-compiled-filter.js";
import type { SqlFragment } from "../sql/fragment.js";
import { teamFilter } from "./team-selection.js";

/** What a scope hook restricts: the listed resource and the name its table has in the query. */
export interface ScopeTarget {
  readonly resource: ResourceRegistry;
  readonly alias: string;
  /** `column` qualified with the alias, e.g. `device.customer_id`. */
  column(column: string): string;
}

/**
 * Tenant scope and team visibility, supplied by the caller's auth layer. It receives its own
 * where group, so nothing it adds (ORs included) can widen or be widened by the filters.
 */
export type ScopeHook = (qb: Knex.QueryBuilder, target: ScopeTarget) => void;

export type ListScope = ScopeHook | { readonly apply: ScopeHook };

export function scopeTarget(resource: ResourceRegistry): ScopeTarget {
  return { resource, alias: resource.alias, column: (column) => `${resource.alias}.${column}` };
}

/** The hook of a ListScope; a programming error (not a 400) when it is missing. */
export function requireScopeHook(scope: ListScope | undefined): ScopeHook {
  if (typeof scope === "function") return scope as ScopeHook;
  const carried = scope as { apply?: unknown } | undefined;
  if (carried && typeof carried.apply === "function") return carried.apply.bind(carried) as ScopeHook;
  throw new TypeError("runList needs options.scope: the tenant scope and team visibility hook of the caller");
}

/** Applies several hooks, each in the same scope group (all must hold). */
export function allScopes(...hooks: readonly ScopeHook[]): ScopeHook {
  return (qb, target) => {
    for (const hook of hooks) hook(qb, target);
  };
}

/** Tenant restriction on the resource's tenantColumn: `customer_id = any(ids)`. */
export function tenantScope(customerIds: readonly (number | string)[]): ScopeHook {
  return (qb, target) => {
    const column = target.resource.tenantColumn;
    if (column === null) throw new TypeError(`resource ${target.resource.name} declares no tenantColumn`);
    // A single tenant as plain equality, so (tenant, ...) btree indexes also serve ORDER BY.
    if (customerIds.length === 1) qb.whereRaw("?? = ?::bigint", [target.column(column), String(customerIds[0])]);
    else qb.whereRaw("?? = any(?::bigint[])", [target.column(column), customerIds.map(String)]);
  };
}

/**
 * Team visibility for restricted users: resources assigned to one of the user's teams, and
 * (when the customer's accessResourcesWithoutTeam setting allows) resources without team.
 * Compiles through the same teamAssignments relation as the filter language.
 */
export function teamVisibility(options: { readonly teamIds: readonly string[]; readonly includeResourcesWithoutTeam: boolean }): ScopeHook {
  return (qb, target) => {
    const teams = target.resource.teams;
    if (teams === null) throw new TypeError(`resource ${target.resource.name} has no team assignments`);
    if (options.teamIds.length === 0 && !options.includeResourcesWithoutTeam) {
      qb.whereRaw("false");
      return;
    }
    const node = options.teamIds.length === 0
      ? ({ kind: "comparison", field: teams.field, operator: "=", value: { kind: "null" } } as const)
      : teamFilter(teams.field, options.teamIds, options.includeResourcesWithoutTeam);
    applyCompiledFilter(qb, compileFilter(target.resource, node, { aliasPrefix: "_v" }));
  };
}

/** `readOnly` for includeReadOnlyInfo, computed per row by the caller's auth layer. */
export type ReadOnlyHook = (target: ScopeTarget) => SqlFragment;

/**
 * readOnly for a team-restricted user: none of the user's teams has a writable assignment.
 */
export function readOnlyThroughTeams(teamIds: readonly string[]): ReadOnlyHook {
  return (target) => {
    const teams = target.resource.teams;
    if (teams === null) throw new TypeError(`resource ${target.resource.name} has no team assignments`);
    return {
      sql: `not exists (select 1 from ?? where ?? = ?? and ??::text = any(?::text[]) and not ??)`,
      bindings: [
        `${teams.table} as _ro`,
        `_ro.${teams.resourceIdColumn}`,
        target.column(target.resource.idColumn!),
        `_ro.${teams.teamIdColumn}`,
        [...teamIds],
        `_ro.${teams.readOnlyColumn}`,
      ],
    };
  };
}
