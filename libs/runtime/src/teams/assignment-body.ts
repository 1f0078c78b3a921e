// The two assignment bodies of document 2 "Teams on resources" (`assignToTeams`
// [{teamId, readOnly}], `removeFromTeamIds`) and "Teams, tags, users, quick
// filters" (`resourcesToAdd` [{id, readOnly}], `resourceIdsToRemove`), checked
// by every owner (core, media) before it writes them: an id named twice among the
// additions, or both added and removed, is a contradictory request (400), not a
// database error (it was a 500 from the upsert, "ON CONFLICT DO UPDATE cannot
// affect row a second time").
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import type { TeamAssignmentUpdate, TeamResourcesUpdate } from "@signage/contracts/signage/common/v1/teams_pb";

/** 400 `team.error.duplicateAssignment` when `field` names an id twice (also `teamIds=a:true,a:false` on create); returns the ids. */
export function refuseDuplicateAssignments(added: readonly string[], field: string): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of added) (seen.has(id) ? twice : seen).add(id);
  if (twice.size > 0) {
    const ids = [...twice];
    throw serviceError(Code.InvalidArgument, "team.error.duplicateAssignment", `${field} names ${ids.join(", ")} more than once`, { field, ids });
  }
  return seen;
}

function check(added: readonly string[], removed: readonly string[], addField: string, removeField: string): void {
  const seen = refuseDuplicateAssignments(added, addField);
  const both = [...new Set(removed.filter((id) => seen.has(id)))];
  if (both.length > 0) {
    throw serviceError(Code.InvalidArgument, "team.error.conflictingAssignment", `${both.join(", ")} both in ${addField} and ${removeField}`, { fields: [addField, removeField], ids: both });
  }
}

/** `assignToTeams` / `removeFromTeamIds` of `POST /api/{resource}/updateTeamAssignments`. */
export function checkAssignmentUpdate(update: TeamAssignmentUpdate | undefined): void {
  check((update?.assignToTeams ?? []).map((a) => a.teamId), update?.removeFromTeamIds ?? [], "assignToTeams", "removeFromTeamIds");
}

/** `resourcesToAdd` / `resourceIdsToRemove` of `PUT /api/team/update{ResourceType}Assignments`. */
export function checkResourcesUpdate(update: TeamResourcesUpdate | undefined): void {
  check((update?.resourcesToAdd ?? []).map((a) => a.id), update?.resourceIdsToRemove ?? [], "resourcesToAdd", "resourceIdsToRemove");
}
