// fileCount and firstFileThumbnail of the page's stored folders for a team-restricted caller,
// counted over the files its teams show: document 2, "User": "restricted = sees only team-assigned
// resources". The SQL of the full-access list (file-folder-resource.ts) counts every file, which
// would tell such a caller of files its teams hide (a count, and the first one's thumbnail,
// downloadable), so its values are filled in after the query, for the whole page in one statement: per folder, a count and the first thumbnail by name (walking file_folder_name_idx
// and stopping at the first visible file). Filtered folders are counted by filtered-folder-counts.ts,
// afterwards.
import type { Knex } from "knex";
import { teamVisibilityHook, type TeamAccess } from "@signage/auth";
import type { FileFolder } from "@signage/contracts/signage/media/v1/file_folder_pb";
import type { FilteredFolderFields } from "./filtered-folder-counts.js";

interface ContentsRow {
  folder_id: string;
  file_count: string | number | null;
  thumbnail_key: string | null;
}

/** Sets the selected fields (thumbnail blob keys: completeFolder turns them into URLs). `teams` undefined or full: every file counts. */
export async function completeFolderContents(knex: Knex, folders: FileFolder[], fields: FilteredFolderFields, teams: TeamAccess | undefined): Promise<void> {
  if ((!fields.fileCount && !fields.firstFileThumbnail) || folders.length === 0) return;
  const visibleFiles = (alias: string) => {
    const qb = knex(`file as ${alias}`).whereRaw("?? = f.id", [`${alias}.file_folder_id`]);
    if (teams) teamVisibilityHook(teams)(qb, { column: (column) => `${alias}.${column}` });
    return qb;
  };
  const columns: (string | Knex.QueryBuilder)[] = ["f.id as folder_id"];
  if (fields.fileCount) columns.push(visibleFiles("fc").count("*").as("file_count"));
  if (fields.firstFileThumbnail) columns.push(visibleFiles("ft").select("ft.thumbnail_key").orderBy(["ft.name", "ft.id"]).limit(1).as("thumbnail_key"));
  const rows = (await knex.select(columns).from(knex.raw("unnest(?::uuid[]) as f(id)", [folders.map((f) => f.id)]))) as ContentsRow[];
  const byId = new Map(rows.map((r) => [r.folder_id, r]));
  for (const folder of folders) {
    const row = byId.get(folder.id);
    if (fields.fileCount) folder.fileCount = BigInt(row?.file_count ?? 0);
    if (fields.firstFileThumbnail) folder.firstFileThumbnail = row?.thumbnail_key ?? undefined;
  }
}
