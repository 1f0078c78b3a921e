// Reads of quick filters within the caller's tenant scope, with `readOnly`.
import type { Knex } from "knex";
import { applyScope, type Scope } from "@signage/auth";
import type { QuickFilterRow } from "./quick-filter-row.js";
import { READ_ONLY_USER_TYPES } from "./quick-filter-resource.js";
import { teamAssignmentsSql } from "../teams/assignments-json.js";
import { isUuid } from "@signage/runtime";

/** The filter when it exists in `scope`; undefined for unknown, foreign or malformed ids. */
export async function findQuickFilter(db: Knex | Knex.Transaction, scope: Scope, id: string, lock = false): Promise<QuickFilterRow | undefined> {
  if (!isUuid(id)) return undefined;
  const qb = db("quick_filter as qf")
    .where("qf.id", id)
    .select("qf.*", db.raw("exists (select 1 from quick_filter_usage u where u.quick_filter_id = qf.id::text and u.used and u.used_by_type = any(?)) as read_only", [[...READ_ONLY_USER_TYPES]]))
    .select(db.raw(`${teamAssignmentsSql("qf.id")} as team_assignments`));
  applyScope(qb, scope, "qf.customer_id");
  if (lock) qb.forUpdate("qf");
  return qb.first();
}

/** What still uses the filter (rows with used=true), by user type. */
export async function usagesOf(db: Knex | Knex.Transaction, id: string): Promise<{ used_by_type: string; used_by_id: string }[]> {
  return db("quick_filter_usage").where({ quick_filter_id: id, used: true }).select("used_by_type", "used_by_id").orderBy(["used_by_type", "used_by_id"]);
}

/** The filter is the one of that filtered folder (media reports `FILE_FOLDER` usages). */
export async function usedByFilteredFolder(db: Knex | Knex.Transaction, id: string, folderId: string): Promise<boolean> {
  const usage = await db("quick_filter_usage").where({ quick_filter_id: id, used_by_type: "FILE_FOLDER", used_by_id: folderId, used: true }).first("quick_filter_id");
  return usage !== undefined;
}
