// An upload's `teamIds` name teams of the upload's tenant. Checked before any
// byte or session exists (and again by chunked complete before assembly), so
// a wrong id costs a 400 instead of the uploaded bytes. The replica answers,
// then core on behalf of the caller for teams the replica has not seen yet.
import type { HandlerContext } from "@connectrpc/connect";
import { localTeamDirectory, replicaTeamDirectory } from "@signage/runtime";
import type { TeamAssignmentInput } from "../files/team-hooks.js";
import type { UploadDeps } from "./upload-deps.js";

/** 400 `team.error.notFound` naming the ids that are no team of `customerId`. */
export async function requireUploadTeams(ctx: HandlerContext, deps: Pick<UploadDeps, "peers" | "files">, customerId: number, assignments: readonly TeamAssignmentInput[]): Promise<void> {
  if (assignments.length === 0) return;
  const directory = deps.peers ? replicaTeamDirectory(deps.files.knex, deps.peers) : localTeamDirectory(deps.files.knex);
  await directory.requireTeams(ctx, customerId, assignments.map((a) => a.teamId));
}
