// `teamIds=<id>:<readOnly>,...` on create (document 2 "Teams on resources").
import { Code } from "@connectrpc/connect";
import { serviceError, type ResourceTeamAssignment } from "@signage/auth";

/** `a:true,b:false,c` -> assignments (readOnly defaults to false; duplicates: the last wins). */
export function parseTeamIdsParam(text: string | undefined | null): ResourceTeamAssignment[] {
  if (text === undefined || text === null || text.trim() === "") return [];
  const byTeam = new Map<string, boolean>();
  for (const raw of text.split(",")) {
    const part = raw.trim();
    if (part === "") continue;
    const [teamId, flag, extra] = part.split(":").map((s) => s.trim());
    if (!teamId || extra !== undefined || (flag !== undefined && flag !== "true" && flag !== "false")) {
      throw serviceError(Code.InvalidArgument, "team.error.invalidTeamIds", `Invalid teamIds '${text}': expected <teamId>:<true|false>, comma separated`, { teamIds: text });
    }
    byTeam.set(teamId, flag === "true");
  }
  return [...byTeam].map(([teamId, readOnly]) => ({ teamId, readOnly }));
}
