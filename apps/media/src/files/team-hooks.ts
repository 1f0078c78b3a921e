// Team assignments of files and folders belong to the teams work (H1:
// libs/runtime/src/teams, apps/media/src/teams). Files and folders call them
// through this port, so create/delete/replace/list stay the same once the
// storage lands. Until then `teamsNotAvailable` answers: no team exists.
import type { Knex } from "knex";
import { unknownTeams } from "@signage/runtime";
import type { AuthContext, TeamAccess } from "@signage/auth";
import type { TeamAssignmentMode } from "./file-events.js";

export type TeamResourceKind = "file" | "fileFolder";

export interface TeamAssignmentInput {
  teamId: string;
  readOnly: boolean;
}

export interface MediaTeamHooks {
  /** The caller's team access for lists (visibility and readOnly); absent = no team restriction. */
  access?(auth: AuthContext): Promise<TeamAccess>;
  /** On create: `teamIds=id:readOnly` pairs, plus the parent folder's assignments when inheritParentTeams. */
  assignOnCreate(trx: Knex.Transaction, kind: TeamResourceKind, resourceId: string, customerId: number, assignments: TeamAssignmentInput[], inheritFromFolderId?: string): Promise<void>;
  /** On delete: drop the assignments of these resources (same transaction). */
  removeAll(trx: Knex.Transaction, kind: TeamResourceKind, resourceIds: string[]): Promise<void>;
  /**
   * Before a create: refuse (400 team.error.notVisibleToCreator / notWritableByCreator) when the new
   * resource's teams (its `teamIds`, plus the parent's when inherited) would hide it from the caller
   * or leave it read-only: it could not finish (thumbnail), change or delete what it made.
   * Optional: absent = no team restriction.
   */
  assertCreatorCanWrite?(db: Knex | Knex.Transaction, auth: AuthContext, assignments: readonly TeamAssignmentInput[], inheritFromFolderId?: string): Promise<void>;
  /** Before a create in the tenant's root (`rootId` when the caller named it): 403 when the caller's teams hold the root read-only (hidden, or without teams: the root-creation setting decides). Optional. */
  assertRootWritable?(db: Knex | Knex.Transaction, auth: AuthContext, customerId: number, rootId?: string): Promise<void>;
  /** Before a write: refuse when the caller only holds read-only team access to the resource. */
  assertWritable(db: Knex | Knex.Transaction, auth: AuthContext, kind: TeamResourceKind, resourceIds: string[]): Promise<void>;
  /**
   * Before a folder's subtree is deleted: refuse (403 team.error.readOnly, naming the folder) when
   * the caller may not write every folder and file in it (`resourceIds` is called only for team-restricted
   * callers). Optional: absent = no team restriction.
   */
  assertTreeWritable?(db: Knex | Knex.Transaction, auth: AuthContext, folderId: string, resourceIds: () => Promise<{ folders: string[]; files: string[] }>): Promise<void>;
  /** On replace: the source file's assignments after MERGE / OVERWRITE / KEEP_TARGET. */
  applyReplace(trx: Knex.Transaction, fromFileId: string, toFileId: string, mode: TeamAssignmentMode): Promise<void>;
}

/** Before the team storage exists: no team id can be valid, and there is nothing to copy or drop. */
export const teamsNotAvailable: MediaTeamHooks = {
  async assignOnCreate(_trx, _kind, _id, _customerId, assignments) {
    if (assignments.length > 0) {
      throw unknownTeams(assignments.map((a) => a.teamId));
    }
  },
  async removeAll() {},
  async assertWritable() {},
  async applyReplace() {},
};
