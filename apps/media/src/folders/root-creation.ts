// Customer team setting isFileAndFolderCreationEnabledInRootForTeamUsers
// (document 2, "Customer"): when false, team users may not create files or
// folders directly in the root folder, only inside folders of their teams.
import { Code } from "@connectrpc/connect";
import { mayCreateInRoot, serviceError, type AuthContext, type TeamAccess } from "@signage/auth";
import type { Knex } from "knex";
import type { MediaTeamHooks, TeamAssignmentInput } from "../files/team-hooks.js";

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

/**
 * The team checks of every create in a folder (upload, chunked init, folder create), before
 * anything is stored: the parent must be writable for the caller, except the root, where
 * isFileAndFolderCreationEnabledInRootForTeamUsers decides (a root without teams is hidden from
 * team users whose customer shows them only team items: naming it must work as leaving the
 * parent out does, unless the caller's teams hold it read-only); and the new item must stay
 * writable for the caller (its teams, plus the parent's when `inheritParentTeams`).
 */
/**
 * The root branch of assertMayCreateIn, also run by a move into the root (folder-move.ts): 403 when the
 * caller's teams hold the root read-only; a root hidden from them or without teams is not refused as
 * invisible (404) but by isFileAndFolderCreationEnabledInRootForTeamUsers. `rootId`: the root, when named.
 */
export async function assertMayCreateInRootFolder(db: Knex | Knex.Transaction, teams: MediaTeamHooks, auth: AuthContext, customerId: number, rootId?: string): Promise<void> {
  await teams.assertRootWritable?.(db, auth, customerId, rootId);
  await assertMayCreateInRoot(teams, auth, true);
}

/**
 * The root's `readOnly` in a team user's folder list (folder-visibility.ts): what assertMayCreateInRootFolder
 * answers for it, without throwing. `heldReadOnly`: the caller's teams hold the root, none of them writable.
 */
export function rootReadOnlyFor(access: TeamAccess, heldReadOnly: boolean): boolean {
  return heldReadOnly || !mayCreateInRoot(access, "fileAndFolder");
}

export async function assertMayCreateIn(
  db: Knex | Knex.Transaction,
  teams: MediaTeamHooks,
  auth: AuthContext,
  target: { customerId: number; parent: { id: string; parent_id: string | null } | undefined },
  assignments: readonly TeamAssignmentInput[],
  inheritParentTeams: boolean,
): Promise<void> {
  const { parent } = target;
  const inRoot = !parent || parent.parent_id === null;
  // Named or left out (uploads then go to the root): the same root.
  if (inRoot) await assertMayCreateInRootFolder(db, teams, auth, target.customerId, parent?.id);
  else await teams.assertWritable(db, auth, "fileFolder", [parent.id]);
  await teams.assertCreatorCanWrite?.(db, auth, assignments, inheritParentTeams ? parent?.id : undefined);
}
