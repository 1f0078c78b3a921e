// Team visibility as SQL, the same for every list of every service. Each
// team-enabled table carries `team_ids uuid[]` (kept by libs/runtime teams in
// the same transaction as its `team_assignment` rows), so visibility is one
// array test per row: GIN-indexed for `&&`, partial-indexed for `= '{}'`. That
// keeps a restricted user's list and count as fast as an unrestricted one
// (tools/bench/access), where EXISTS over the assignment table per row is not.
import type { Knex } from "knex";
import type { TeamAccess } from "./team-access.js";

/** Structural twin of libs/query's ScopeTarget (libs/auth does not depend on libs/query). */
export interface TeamScopeTarget {
  column(column: string): string;
}

export interface TeamColumns {
  /** `uuid[]` of the teams holding the row. Default `team_ids`. */
  teamIdsColumn?: string;
  /** The row's id, matched against `team_assignment.resource_id`. Default `id`. */
  idColumn?: string;
  /** The service's assignment table. Default `team_assignment`. */
  assignmentTable?: string;
}

/** Restricts a list to what the caller's teams see; adds nothing for full access. */
export function teamVisibilityHook(access: TeamAccess, columns: TeamColumns = {}) {
  return (qb: Knex.QueryBuilder, target: TeamScopeTarget): void => {
    if (access.kind === "full") return;
    const teamIds = target.column(columns.teamIdsColumn ?? "team_ids");
    if (access.teamIds.length === 0 && !access.includeWithoutTeam) {
      qb.whereRaw("false");
      return;
    }
    qb.where((group) => {
      if (access.teamIds.length > 0) group.orWhereRaw("?? && ?::uuid[]", [teamIds, [...access.teamIds]]);
      if (access.includeWithoutTeam) group.orWhereRaw("?? = '{}'::uuid[]", [teamIds]);
    });
  };
}

/** The same rule for one row already read: does the caller see a row held by these teams? */
export function visibleThroughTeamIds(access: TeamAccess, teamIds: readonly string[]): boolean {
  if (access.kind === "full") return true;
  if (teamIds.length === 0) return access.includeWithoutTeam;
  return teamIds.some((id) => access.teamIds.includes(id));
}

/**
 * `readOnly` per row for includeReadOnlyInfo: assigned to teams, and none of the
 * caller's writable memberships holds a writable assignment. Full access: false.
 */
export function teamReadOnlyHook(access: TeamAccess, columns: TeamColumns = {}) {
  return (target: TeamScopeTarget): { sql: string; bindings: readonly unknown[] } => {
    if (access.kind === "full") return { sql: "false", bindings: [] };
    return {
      sql: "(cardinality(??) > 0 and not exists (select 1 from ?? where ??.resource_id = ?? and ??.team_id = any(?::uuid[]) and not ??.read_only))",
      bindings: [
        target.column(columns.teamIdsColumn ?? "team_ids"),
        `${columns.assignmentTable ?? "team_assignment"} as _tro`,
        "_tro",
        target.column(columns.idColumn ?? "id"),
        "_tro",
        [...access.writableTeamIds],
        "_tro",
      ],
    };
  };
}
