// The team port of files and folders (../files/team-hooks.ts, MediaTeamHooks)
// over media's team_assignment table and team replica.
import { Code } from "@connectrpc/connect";
import type { Knex } from "knex";
import { resourceAccess, serviceError, type AuthContext, type TeamAccess } from "@signage/auth";
import {
  assignOnCreate,
  assignmentsOnCreate,
  assignmentsOfResource,
  assignmentsOfResources,
  deleteResourceAssignments,
  matchesAnyUuid,
  requireWritable,
  tableOf,
  teamAccessForCaller,
  unknownTeams,
  writeAssignments,
  type TeamFactsSource,
  type TeamResourceTables,
  isUuid,
  requireCreatorCanWrite,
} from "@signage/runtime";
import type { MediaTeamHooks, TeamAssignmentInput, TeamResourceKind } from "../files/team-hooks.js";
import { fileNotFound } from "../files/file-repository.js";
import { touchFiles } from "../files/file-tag-events.js";
import { folderNotFound } from "../folders/folder-repository.js";

// A team created a moment ago reaches the replica within milliseconds (core's
// outbox relay publishes right after the commit); wait that long before refusing.
const REPLICA_GRACE_MS = 1_500;

async function requireReplicatedTeams(db: Knex | Knex.Transaction, customerId: number, teamIds: readonly string[]): Promise<void> {
  const wanted = [...new Set(teamIds)];
  const invalid = wanted.filter((id) => !isUuid(id));
  let missing = wanted.filter(isUuid);
  const deadline = Date.now() + REPLICA_GRACE_MS;
  while (missing.length > 0) {
    // One array parameter, not one per id: `teamIds` may name more than PostgreSQL's 65535 bind parameters.
    const found = new Set((await db("team").whereRaw(...matchesAnyUuid("id", missing)).where({ customer_id: customerId }).select("id")).map((r: { id: string }) => r.id));
    missing = missing.filter((id) => !found.has(id));
    if (missing.length === 0 || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const unknown = [...invalid, ...missing];
  if (unknown.length > 0) throw unknownTeams(unknown);
}

export interface MediaTeamHooksWithAccess extends MediaTeamHooks {
  /** The caller's TeamAccess, for `listRpc({ teams })`. */
  access(auth: AuthContext): Promise<TeamAccess>;
}

export function mediaTeamHooks(tables: TeamResourceTables, facts: TeamFactsSource): MediaTeamHooksWithAccess {
  return {
    access: (auth) => teamAccessForCaller(facts, auth.caller),

    async assignOnCreate(trx, kind, resourceId, customerId, assignments, inheritFromFolderId) {
      if (assignments.length === 0 && !inheritFromFolderId) return;
      await requireReplicatedTeams(trx, customerId, assignments.map((a) => a.teamId));
      await assignOnCreate(trx, tableOf(tables, kind), { resourceId, customerId, teams: assignments, inheritFromResourceId: inheritFromFolderId });
    },

    async assertCreatorCanWrite(db, auth, assignments, inheritFromFolderId) {
      const access = await teamAccessForCaller(facts, auth.caller);
      if (access.kind === "full") return;
      requireCreatorCanWrite(access, await assignmentsOnCreate(db, assignments, inheritFromFolderId));
    },

    async assertRootWritable(db, auth, customerId, named) {
      const access = await teamAccessForCaller(facts, auth.caller);
      if (access.kind === "full") return;
      const rootId = named ?? (await db("file_folder").where({ customer_id: customerId }).whereNull("parent_id").first("id"))?.id;
      if (!rootId) return;
      const assignments = (await assignmentsOfResources(db, [rootId])).get(rootId) ?? [];
      // A root an OWNER gave the caller's teams read-only is read-only for it; hidden or without teams, the root-creation setting decides.
      if (assignments.length > 0 && resourceAccess(access, assignments) === "read") requireWritable(access, "fileFolder", rootId, assignments);
    },

    async removeAll(trx, _kind, resourceIds) {
      await deleteResourceAssignments(trx, resourceIds);
    },

    async assertWritable(db, auth, kind, resourceIds) {
      const access = await teamAccessForCaller(facts, auth.caller);
      if (access.kind === "full" || resourceIds.length === 0) return;
      const assignments = await assignmentsOfResources(db, resourceIds);
      // A file or folder the caller's teams hide answers as a missing one (its existence is not the caller's to learn).
      const notFound = kind === "file" ? fileNotFound : folderNotFound;
      for (const id of resourceIds) requireWritable(access, kind, id, assignments.get(id) ?? [], notFound);
    },

    async assertTreeWritable(db, auth, folderId, resourceIds) {
      const access = await teamAccessForCaller(facts, auth.caller);
      if (access.kind === "full") return;
      const { folders, files } = await resourceIds();
      const assignments = await assignmentsOfResources(db, [...folders, ...files]);
      // An item the caller reads only, or does not see at all, is not named (its id is not the caller's to learn).
      for (const [, teams] of assignments) {
        if (resourceAccess(access, teams) !== "write") {
          throw serviceError(Code.PermissionDenied, "team.error.readOnly", `fileFolder '${folderId}' holds folders or files that are read-only for you through their team assignments`, { resourceType: "fileFolder", id: folderId });
        }
      }
    },

    async applyReplace(trx, fromFileId, toFileId, mode) {
      // "teamAssignmentMode (MERGE default, OVERWRITE, KEEP_TARGET)": the source file
      // takes over the replaced file's usages; its teams become
      // MERGE = both files' teams, OVERWRITE = the replaced file's, KEEP_TARGET = its own.
      if (mode === "KEEP_TARGET") return;
      const table = tableOf(tables, "file");
      const [from, to] = [await assignmentsOfResource(trx, fromFileId), await assignmentsOfResource(trx, toFileId)];
      const customer = await trx("file").where({ id: toFileId }).first("customer_id");
      const customerId = Number(customer?.customer_id);
      const upserts = from.map((a) => ({ resourceId: toFileId, teamId: a.teamId, readOnly: a.readOnly }));
      const deletes = mode === "OVERWRITE" ? to.filter((a) => !from.some((f) => f.teamId === a.teamId)).map((a) => ({ resourceId: toFileId, teamId: a.teamId })) : [];
      // MERGE keeps the source's own entry where both files hold the same team.
      const merged = mode === "MERGE" ? upserts.filter((u) => !to.some((a) => a.teamId === u.teamId)) : upserts;
      await writeAssignments(trx, table, customerId, merged, deletes);
      // Its teams changed: a newer update_date for the tag announcement that follows (file-tag-events.ts).
      if (merged.length > 0 || deletes.length > 0) await touchFiles(trx, [toFileId]);
    },
  };
}

export type { TeamAssignmentInput, TeamResourceKind };
