// What a team-restricted caller creates must stay its own to work with: document 2, "User":
// "restricted = sees only team-assigned resources". A new item whose teams (or lack of one, where
// the customer hides items without a team) would hide it from its creator, or leave it read-only,
// was created and then answered 404, or could not be finished, changed or deleted by whoever made
// it. Checked before anything is written, with the teams the item will have.
import { Code } from "@connectrpc/connect";
import { resourceAccess, serviceError, type ResourceTeamAssignment, type TeamAccess } from "@signage/auth";

/** 400 team.error.notVisibleToCreator / team.error.notWritableByCreator naming the teams; full access passes. */
export function requireCreatorCanWrite(access: TeamAccess, teams: readonly ResourceTeamAssignment[]): void {
  const level = resourceAccess(access, teams);
  if (level === "write") return;
  const teamIds = teams.map((t) => t.teamId);
  if (level === "read") {
    throw serviceError(Code.InvalidArgument, "team.error.notWritableByCreator", "Through its teams the new item would be read-only for you: assign one of your teams you may write, with readOnly false, in teamIds", { fields: "teamIds", teamIds });
  }
  throw serviceError(
    Code.InvalidArgument,
    "team.error.notVisibleToCreator",
    teamIds.length === 0
      ? "Without a team the new item would be hidden from you (your customer shows team users only items of their teams): assign one of your teams with teamIds"
      : "The new item would be held only by teams you are not a member of, which hides it from you: assign one of your teams with teamIds",
    { fields: "teamIds", teamIds },
  );
}
