// Which tagged resources a caller's counts include. Restricted users (document
// 2 "User": "restricted = sees only team-assigned resources") count only
// resources of their teams, plus resources without team when the customer's
// accessResourcesWithoutTeam allows it. The shape is libs/auth's TeamAccess
// (H1's team visibility), so its resolver plugs in directly.
import type { Knex } from "knex";
import type { AuthContext } from "@signage/auth";

export type TagVisibility =
  | { readonly kind: "full" }
  | { readonly kind: "teams"; readonly teamIds: readonly string[]; readonly includeWithoutTeam: boolean };

/** Resolves the caller's visibility (core wires H1's team access resolver here). */
export type TagVisibilityResolver = (auth: AuthContext) => Promise<TagVisibility>;

export const FULL_TAG_VISIBILITY: TagVisibility = Object.freeze({ kind: "full" });

/** Restricts tag_assignment rows (alias `a`) to what the caller may see. */
export function applyTagVisibility(qb: Knex.QueryBuilder, visibility: TagVisibility, teamIdsColumn = "a.team_ids"): void {
  if (visibility.kind === "full") return;
  if (visibility.teamIds.length === 0 && !visibility.includeWithoutTeam) {
    qb.whereRaw("false");
    return;
  }
  qb.where((group) => {
    if (visibility.teamIds.length > 0) group.orWhereRaw("?? && ?::uuid[]", [teamIdsColumn, [...visibility.teamIds]]);
    if (visibility.includeWithoutTeam) group.orWhereRaw("?? = '{}'::uuid[]", [teamIdsColumn]);
  });
}
