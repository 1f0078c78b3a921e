import { InvalidListParameterError } from "../errors.js";
import type { FilterNode } from "../filter/ast.js";
import type { ResourceRegistry } from "../registry/resource.js";
import { canHoldId } from "../resolve/typed-values.js";

/**
 * `selectTeamIds` / `includeResourcesWithoutTeam` as a filter over the same `teamAssignments`
 * relation the filter language uses: assigned to one of the teams, or (when asked) to none.
 * Without selectTeamIds there is no team restriction.
 */
export function teamSelectionFilter(resource: ResourceRegistry, teamIds: readonly string[], includeWithoutTeam: boolean, raw: unknown = teamIds.join(",")): FilterNode | null {
  if (teamIds.length === 0) return null;
  if (resource.teams === null) {
    throw new InvalidListParameterError(`selectTeamIds is not supported by the ${resource.name} list: it has no team assignments`, "selectTeamIds", raw);
  }
  checkTeamIds(resource.teams.teamIdType, teamIds, raw);
  return teamFilter(resource.teams.field, teamIds, includeWithoutTeam);
}

/**
 * `selectTeamIds` "(comma separated)" team ids: an item the team id type cannot hold ("nope",
 * a team name, the `teamId:readOnly` pair of `teamIds=` on create) names no team and never can,
 * so it is bad input (400 naming it), not a filter that quietly matches nothing. A well-formed
 * id of no team still just matches nothing. (The filter language's `teamAssignments.team.id=`
 * keeps ids opaque, as every id comparison there.)
 */
function checkTeamIds(type: NonNullable<ResourceRegistry["teams"]>["teamIdType"], teamIds: readonly string[], raw: unknown): void {
  const bad = teamIds.find((id) => !canHoldId(type, id));
  if (bad === undefined) return;
  const hint = bad.includes(":") ? ` ('${bad}' looks like a teamIds 'teamId:readOnly' pair; selectTeamIds takes the ids alone)` : "";
  const expected = type === "uuid" ? " (UUIDs)" : type === "bigint" ? " (integers)" : "";
  throw new InvalidListParameterError(`Invalid selectTeamIds: '${bad}' is not a team id; expected comma separated team ids${expected}${hint}`, "selectTeamIds", raw);
}

/** `teamAssignments.team.id∈ids` OR (optionally) `teamAssignments=NULL`, as an AST. */
export function teamFilter(relation: string, teamIds: readonly string[], includeWithoutTeam: boolean): FilterNode {
  const assigned: FilterNode = { kind: "comparison", field: `${relation}.team.id`, operator: "∈", value: { kind: "set", items: teamIds } };
  if (!includeWithoutTeam) return assigned;
  return { kind: "or", children: [assigned, { kind: "comparison", field: relation, operator: "=", value: { kind: "null" } }] };
}

export function parseTeamIds(value: string | readonly string[] | undefined): string[] {
  if (value === undefined || value === null) return [];
  const parts = typeof value === "string" ? value.split(",") : [...value];
  if (parts.some((part) => typeof part !== "string")) {
    throw new InvalidListParameterError("Invalid selectTeamIds: expected comma separated team ids", "selectTeamIds", value);
  }
  return [...new Set(parts.map((part) => part.trim()).filter((part) => part !== ""))];
}

export function parseBooleanParameter(name: string, value: boolean | string | undefined): boolean {
  if (value === undefined || value === null || value === "") return false;
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  throw new InvalidListParameterError(`Invalid ${name} '${String(value)}': expected true or false`, name, value);
}
