// `teamIds=<id>:<readOnly>,...` on create (document 2 "Teams on resources").
import { Code } from "@connectrpc/connect";
import { serviceError, type ResourceTeamAssignment } from "@signage/auth";
import { refuseDuplicateAssignments } from "./assignment-body.js";

/**
 * `a:true,b:false,c` -> assignments (readOnly defaults to false). A team named twice is refused as
 * updateTeamAssignments refuses it (400 team.error.duplicateAssignment): `t:true,t:false` is
 * contradictory and must not silently become one of the two.
 */
export function parseTeamIdsParam(text: string | undefined | null): ResourceTeamAssignment[] {
  if (text === undefined || text === null || text.trim() === "") return [];
  const assignments: ResourceTeamAssignment[] = [];
  for (const raw of text.split(",")) {
    const part = raw.trim();
    if (part === "") continue;
    const [teamId, flag, extra] = part.split(":").map((s) => s.trim());
    if (!teamId || extra !== undefined || (flag !== undefined && flag !== "true" && flag !== "false")) {
      throw serviceError(Code.InvalidArgument, "team.error.invalidTeamIds", `Invalid teamIds '${text}': expected <teamId>:<true|false>, comma separated`, { teamIds: text });
    }
    assignments.push({ teamId, readOnly: flag === "true" });
  }
  refuseDuplicateAssignments(assignments.map((a) => a.teamId), "teamIds");
  return assignments;
}
