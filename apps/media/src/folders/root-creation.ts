// Customer team setting isFileAndFolderCreationEnabledInRootForTeamUsers
// (document 2, "Customer"): when false, team users may not create files or
// folders directly in the root folder, only inside folders of their teams.
import { Code } from "@connectrpc/connect";
import { mayCreateInRoot, serviceError, type AuthContext } from "@signage/auth";
import type { MediaTeamHooks } from "../files/team-hooks.js";

/** `parentIsRoot`: the target folder is the customer's root (no parent), or no folder was named (uploads default to the root). */
export async function assertMayCreateInRoot(teams: MediaTeamHooks, auth: AuthContext, parentIsRoot: boolean): Promise<void> {
  if (!parentIsRoot || !teams.access) return;
  if (mayCreateInRoot(await teams.access(auth), "fileAndFolder")) return;
  throw serviceError(
    Code.PermissionDenied,
    "team.error.rootCreationDisabled",
    "Creating files and folders in the root folder is disabled for team users of this customer (isFileAndFolderCreationEnabledInRootForTeamUsers)",
    { setting: "isFileAndFolderCreationEnabledInRootForTeamUsers" },
  );
}
