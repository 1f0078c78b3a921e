// A single resource's `teamAssignments` as its list renders them with
// `select=teamAssignments(readOnly,team(id,name))`: one correlated subquery on
// core's team_assignment (primary key leads with resource_id), ordered by team id.
import { create } from "@bufbuild/protobuf";
import { ResourceTeamAssignmentSchema, type ResourceTeamAssignment } from "@signage/contracts/signage/common/v1/teams_pb";

export interface AssignmentJson {
  readOnly: boolean;
  team: { id: string; name: string | null };
}

/** SQL selecting the JSON array of the resource at `idColumn` (a trusted `alias.column`). */
export function teamAssignmentsSql(idColumn: string): string {
  if (!/^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/.test(idColumn)) throw new TypeError(`not a column reference: ${idColumn}`);
  return `(SELECT coalesce(jsonb_agg(jsonb_build_object('readOnly', ta.read_only, 'team', jsonb_build_object('id', t.id, 'name', t.name)) ORDER BY ta.team_id), '[]'::jsonb) FROM team_assignment ta JOIN team t ON t.id = ta.team_id WHERE ta.resource_id = ${idColumn})`;
}

/** The JSON array as the message's `teamAssignments`. */
export function assignmentsToMessage(rows: AssignmentJson[] | null | undefined): ResourceTeamAssignment[] {
  return (rows ?? []).map(({ readOnly, team }) => create(ResourceTeamAssignmentSchema, { readOnly, team: { id: team.id, name: team.name ?? undefined } }));
}

/** The assignments as team access checks read them (`resourceAccess`). */
export function assignmentFacts(rows: AssignmentJson[] | null | undefined): { teamId: string; readOnly: boolean }[] {
  return (rows ?? []).map(({ readOnly, team }) => ({ teamId: team.id, readOnly }));
}
