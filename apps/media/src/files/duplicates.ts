// duplicateDetails for a team-restricted caller: "files with the same checksum (select-only)", same
// tenant, of those its teams show (document 2, "User": "restricted = sees only team-assigned
// resources"). The SQL of the full-access list names every such file (id, name, folder), hidden ones
// too, so for such a caller the value is filled in after the query, for the page in one statement, in the shape
// {count, files: [{id, name, fileFolderId}]} ordered by id.
import type { Knex } from "knex";
import { teamVisibilityHook, type TeamAccess } from "@signage/auth";
import type { File } from "@signage/contracts/signage/media/v1/file_pb";

interface DuplicateRow {
  of_id: string;
  id: string;
  name: string;
  file_folder_id: string | null;
}

/** Sets duplicateDetails where selected. `teams` undefined or full: every duplicate counts. */
export async function completeDuplicates(knex: Knex, files: File[], teams: TeamAccess | undefined): Promise<void> {
  const selected = files.filter((f) => f.duplicateDetails !== undefined);
  if (selected.length === 0) return;
  const qb = knex("file as o")
    .join("file as d", (on) => on.on("d.customer_id", "o.customer_id").andOn("d.crc_check_sum", "o.crc_check_sum").andOn("d.id", "<>", "o.id"))
    .whereRaw("o.id = any(?::uuid[])", [selected.map((f) => f.id)])
    .select("o.id as of_id", "d.id", "d.name", "d.file_folder_id")
    .orderBy(["o.id", "d.id"]);
  if (teams) teamVisibilityHook(teams)(qb, { column: (column) => `d.${column}` });
  const byFile = new Map<string, DuplicateRow[]>();
  for (const row of (await qb) as DuplicateRow[]) {
    const rows = byFile.get(row.of_id);
    if (rows) rows.push(row);
    else byFile.set(row.of_id, [row]);
  }
  for (const file of selected) {
    const rows = byFile.get(file.id) ?? [];
    file.duplicateDetails = { count: rows.length, files: rows.map((r) => ({ id: r.id, name: r.name, fileFolderId: r.file_folder_id })) };
  }
}
