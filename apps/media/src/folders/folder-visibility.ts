// What a team-restricted caller sees of its tenant's folder tree, for every folder list
// (folder-list.ts: GET /api/v2/fileFolder, single-folder reads, the breadcrumb, the summary).
// Document 1: "Root folder: ... To create something in the root, first read the root id (filter
// parentId=NULL ...)", and "Breadcrumb: ... folders from root to the requested folder": the
// customer's root itself is shown to every team user of the tenant, whatever
// accessResourcesWithoutTeam says (document 2) and whichever teams hold it. Everything else, the
// root's folders and files without a team included, only as the caller's teams show it
// (libs/auth teamVisibilityHook). The root's readOnly says whether the caller may create in it,
// as creates and moves into it are checked (root-creation.ts).
import type { Knex } from "knex";
import { teamReadOnlyHook, teamVisibilityHook, type TeamAccess } from "@signage/auth";
import type { FileFolder } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { rootReadOnlyFor } from "./root-creation.js";

const FOLDERS = { column: (column: string) => `f.${column}` };

/** The list condition over `file_folder as f` for a team-restricted caller: the root, or what its teams show. */
export function folderVisibility(access: TeamAccess): (qb: Knex.QueryBuilder) => void {
  return (qb) => {
    if (access.kind === "full") return;
    qb.whereNull("f.parent_id").orWhere((shown) => teamVisibilityHook(access)(shown, FOLDERS));
  };
}

interface ReadOnlyRow {
  id: string;
  is_root: boolean;
  team_read_only: boolean;
  held_by_my_teams: boolean;
}

/**
 * `readOnly` of the page's folders (those that carry it) for a team-restricted caller, in one statement:
 * read-only through its teams (libs/auth teamReadOnlyHook) and, for the root, what creating there allows.
 */
export async function completeFolderReadOnly(knex: Knex, folders: FileFolder[], access: TeamAccess): Promise<void> {
  const page = folders.filter((f) => f.readOnly !== undefined);
  if (access.kind === "full" || page.length === 0) return;
  const teamReadOnly = teamReadOnlyHook(access)(FOLDERS);
  const rows = (await knex("file_folder as f")
    .whereRaw("f.id = any(?::uuid[])", [page.map((f) => f.id)])
    .select(
      "f.id",
      knex.raw("f.parent_id is null as is_root"),
      knex.raw(`(${teamReadOnly.sql}) as team_read_only`, teamReadOnly.bindings as Knex.RawBinding[]),
      knex.raw("f.team_ids && ?::uuid[] as held_by_my_teams", [[...access.teamIds]]),
    )) as ReadOnlyRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const folder of page) {
    const row = byId.get(folder.id);
    if (!row) continue;
    // teamReadOnlyHook is also true for a root held by other teams only: not read-only for creating in it.
    folder.readOnly = folder.readOnly || (row.is_root ? rootReadOnlyFor(access, row.team_read_only && row.held_by_my_teams) : row.team_read_only);
  }
}
