// fileCount and firstFileThumbnail of stored folders for a team-restricted caller: document 2,
// "User": "restricted = sees only team-assigned resources". The resource's SQL counts every file a
// folder holds (one correlated subquery, the same for every caller), which would tell a
// restricted caller about files its teams hide, and hand it the first one's thumbnail. For such a
// caller the page's folders are counted again at once, with the file list's team visibility.
// Filtered folders are counted by filtered-folder-counts.ts, afterwards.
import type { Knex } from "knex";
import { teamVisibilityHook, type TeamAccess } from "@signage/auth";
import type { FileFolder } from "@signage/contracts/signage/media/v1/file_folder_pb";
import type { FilteredFolderFields } from "./filtered-folder-counts.js";

/** Overwrites the selected fields (blob keys: completeFolder turns them into URLs). Full team access: nothing to do. */
export async function completeVisibleFolderContents(knex: Knex, folders: FileFolder[], fields: FilteredFolderFields, teams: TeamAccess | undefined): Promise<void> {
  if (!teams || teams.kind === "full" || folders.length === 0) return;
  const ids = folders.map((f) => f.id);
  const visibleFiles = (alias: string) => {
    const qb = knex(`file as ${alias}`).whereRaw("?? = any(?::uuid[])", [`${alias}.file_folder_id`, ids]);
    teamVisibilityHook(teams)(qb, { column: (column) => `${alias}.${column}` });
    return qb;
  };
  const [counts, firsts] = await Promise.all([
    fields.fileCount ? visibleFiles("fc").groupBy("fc.file_folder_id").select("fc.file_folder_id as folder_id").count({ n: "*" }) : [],
    fields.firstFileThumbnail
      ? visibleFiles("ft").distinctOn("ft.file_folder_id").select("ft.file_folder_id as folder_id", "ft.thumbnail_key").orderBy(["ft.file_folder_id", "ft.name", "ft.id"])
      : [],
  ]);
  const countOf = new Map((counts as { folder_id: string; n: string | number }[]).map((r) => [r.folder_id, Number(r.n)]));
  const thumbnailOf = new Map((firsts as { folder_id: string; thumbnail_key: string | null }[]).map((r) => [r.folder_id, r.thumbnail_key ?? undefined]));
  for (const folder of folders) {
    if (fields.fileCount) folder.fileCount = BigInt(countOf.get(folder.id) ?? 0);
    if (fields.firstFileThumbnail) folder.firstFileThumbnail = thumbnailOf.get(folder.id);
  }
}
