// duplicateDetails for a team-restricted caller: document 2, "User": "restricted = sees only
// team-assigned resources". The resource's SQL lists every file of the tenant with the same
// checksum, the same for every caller, which would name files the caller's teams hide (id, name,
// folder). For such a caller the page's duplicates are read again at once, with the file list's
// team visibility, in the same shape: {count, files: [{id, name, fileFolderId}]} ordered by id.
import type { Knex } from "knex";
import { teamVisibilityHook, type TeamAccess } from "@signage/auth";
import type { File } from "@signage/contracts/signage/media/v1/file_pb";

interface DuplicateRow {
  of_id: string;
  id: string;
  name: string;
  file_folder_id: string | null;
}

/** Overwrites duplicateDetails where selected. Full team access: nothing to do. */
export async function completeVisibleDuplicates(knex: Knex, files: File[], teams: TeamAccess | undefined): Promise<void> {
  if (!teams || teams.kind === "full") return;
  const selected = files.filter((f) => f.duplicateDetails !== undefined);
  if (selected.length === 0) return;
  const qb = knex("file as o")
    .join("file as d", (on) => on.on("d.customer_id", "o.customer_id").andOn("d.crc_check_sum", "o.crc_check_sum").andOn("d.id", "<>", "o.id"))
    .whereRaw("o.id = any(?::uuid[])", [selected.map((f) => f.id)])
    .select("o.id as of_id", "d.id", "d.name", "d.file_folder_id")
    .orderBy(["o.id", "d.id"]);
  teamVisibilityHook(teams)(qb, { column: (column) => `d.${column}` });
  const byFile = new Map<string, DuplicateRow[]>();
  for (const row of (await qb) as DuplicateRow[]) byFile.set(row.of_id, [...(byFile.get(row.of_id) ?? []), row]);
  for (const file of selected) {
    const rows = byFile.get(file.id) ?? [];
    file.duplicateDetails = { count: rows.length, files: rows.map((r) => ({ id: r.id, name: r.name, fileFolderId: r.file_folder_id })) };
  }
}
