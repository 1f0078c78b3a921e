// Which upload sessions a team-restricted caller reaches (recover, part, complete, cancel). Document 2,
// "User": restricted = "sees only team-assigned resources". A session makes a file in its folder
// (`parentId`) with its `teamIds`: one whose folder, or whose file, the caller's teams hide is no
// session of the caller's (404 upload.error.sessionNotFound, as an unknown id), so it can neither
// learn of it nor write chunks into it or cancel it. The writes also need what init and complete
// need (root-creation.ts assertMayCreateIn: a folder held read-only is 403 team.error.readOnly).
// The session's own creator always reaches it: it may still recover or cancel its upload after
// losing the team (complete checks again for it, chunked-complete.ts).
import type { Knex } from "knex";
import type { AuthContext } from "@signage/auth";
import { visibleThroughTeamIds } from "@signage/auth";
import { parseTeamIdsParam } from "@signage/runtime";
import { findFolder, folderVisibleTo } from "../folders/folder-repository.js";
import { assertMayCreateIn } from "../folders/root-creation.js";
import type { SessionRow } from "./session-repository.js";
import { sessionNotFound } from "./upload-errors.js";
import type { UploadDeps } from "./upload-deps.js";

/** `db`: the transaction holding the session row, when there is one. */
export async function requireSessionAccess(deps: UploadDeps, auth: AuthContext, session: SessionRow, uploadId: string, write: boolean, db: Knex | Knex.Transaction = deps.files.knex): Promise<void> {
  const { teams } = deps.files;

  const access = await teams.access?.(auth);
  if (!access || access.kind === "full") return;
  if (session.creator_user_id !== null && session.creator_user_id === auth.caller.userId) return;
  const customerId = Number(session.customer_id);
  const folder = session.parent_id ? await findFolder(db, customerId, session.parent_id) : undefined;
  const assignments = parseTeamIdsParam(session.team_ids ?? undefined);
  const fileTeams = assignments.map((a) => a.teamId.toLowerCase());
  if ((folder && !folderVisibleTo(access, folder)) || !visibleThroughTeamIds(access, fileTeams)) throw sessionNotFound(uploadId);
  // A folder deleted since init: complete answers for it (404 fileFolder.error.notFound).
  if (write && (folder || !session.parent_id)) await assertMayCreateIn(db, teams, auth, { customerId, parent: folder }, assignments, false);
}
