// Reading folders inside one tenant; every lookup names the customer, so an id
// of another tenant is simply "not found".
import { Code } from "@connectrpc/connect";
import type { Knex } from "knex";
import { serviceError, visibleThroughTeamIds, type Scope, type TeamAccess } from "@signage/auth";
import type { IdGenerator } from "@signage/db";
import { ensureRootFolder, tenantDeletedUnderLock } from "./root-folder.js";
import { FOLDER_TYPE_STORED, type FolderRow } from "./folder-row.js";
import { isUuid } from "@signage/runtime";

type Db = Knex | Knex.Transaction;

export function folderNotFound(id: string) {
  return serviceError(Code.NotFound, "fileFolder.error.notFound", `File folder '${id}' not found`, { fileFolderId: id });
}

/**
 * How a read holds the folder row until the transaction ends: `true` FOR UPDATE (the folder
 * itself changes, or files are moved into it), "share" FOR SHARE (a file or folder is created in
 * it: a delete or move of the folder waits, or is waited for and then seen: gone, or at its new path).
 */
export type FolderLock = boolean | "share";

/** The folder in one of the scope's tenants, or undefined. */
export async function findFolder(db: Db, scope: Scope | number, id: string, lock: FolderLock = false): Promise<FolderRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = db<FolderRow>("file_folder").where({ id });
  if (typeof scope === "number") q.where({ customer_id: scope });
  else if (scope.kind === "tenants") q.whereIn("customer_id", [...scope.customerIds]);
  if (lock === true) q.forUpdate();
  else if (lock === "share") q.forShare();
  return (await q.first()) as FolderRow | undefined;
}

export async function requireFolder(db: Db, scope: Scope | number, id: string, lock: FolderLock = false): Promise<FolderRow> {
  const row = await findFolder(db, scope, id, lock);
  if (!row) throw folderNotFound(id);
  return row;
}

/**
 * A folder files can live in: stored (regular or synced), not a filtered one. The transaction
 * that puts files or folders into it locks it ("share" for creates, `true` for moves): otherwise a file
 * committed while its folder is deleted went with the folder's cascade, unannounced and with
 * its bytes left behind, and one moved there failed on the foreign key (500).
 */
export async function requireStoredFolder(db: Db, customerId: number, id: string, lock: FolderLock = false, visibleTo?: TeamAccess): Promise<FolderRow> {
  const row = await requireFolder(db, customerId, id, lock);
  // `visibleTo`: the caller's team access. A folder its teams hide is not found (document 2 "User": restricted =
  // "sees only team-assigned resources"), whatever its type: a 400 for a filtered one would tell the caller it exists.
  if (visibleTo && !folderVisibleTo(visibleTo, row)) throw folderNotFound(id);
  if (row.file_folder_type !== FOLDER_TYPE_STORED) {
    throw serviceError(Code.InvalidArgument, "fileFolder.error.filteredFolder", "A filtered folder only shows the files its quick filter selects; it cannot hold files or folders", { fileFolderId: id });
  }
  return row;
}

/** Does the caller see this folder? The root always (folder-visibility.ts), any other as its teams say. */
export function folderVisibleTo(access: TeamAccess, row: Pick<FolderRow, "parent_id" | "team_ids">): boolean {
  return row.parent_id === null || visibleThroughTeamIds(access, row.team_ids ?? []);
}

/**
 * Locks every folder of `folderId`'s subtree (FOR UPDATE, in id order) until the transaction ends, and
 * returns their ids. One pass is not enough: a folder that joined the subtree while the pass waited (created
 * in one of its folders, or moved into one, by a transaction that held that folder) is not in the pass's
 * snapshot, and an upload into it went on unseen. So passes repeat until one finds no folder that an earlier
 * pass did not lock: then nothing can join the subtree before commit, since every way in (a create, an
 * upload, a move into it) locks one of its folders first.
 */
export async function lockSubtree(trx: Knex.Transaction, customerId: number, folderId: string): Promise<string[]> {
  const locked = new Set<string>();
  for (;;) {
    const rows: { id: string }[] = await trx("file_folder").where({ customer_id: customerId }).whereRaw("path @> ARRAY[?]::uuid[]", [folderId]).orderBy("id").forUpdate().select("id");
    const joined = rows.filter((r) => !locked.has(r.id));
    if (joined.length === 0) return rows.map((r) => r.id);
    for (const r of joined) locked.add(r.id);
  }
}

/**
 * "Root folder: auto-created per customer": read it, creating it lazily if the event has not arrived yet.
 * Never for a deleted customer: a write let in before the delete (an upload still streaming its bytes)
 * finds the root gone with the purge and must not bring the customer's folders back (404 instead).
 */
export async function rootFolderOf(db: Db, customerId: number, newId: IdGenerator): Promise<FolderRow> {
  const found = await db<FolderRow>("file_folder").where({ customer_id: customerId }).whereNull("parent_id").first();
  if (found) return found as FolderRow;
  if (await tenantDeletedUnderLock(db, customerId)) {
    throw serviceError(Code.NotFound, "customer.error.notFound", `Customer ${customerId} not found`, { id: customerId });
  }
  await ensureRootFolder(db, customerId, newId);
  return (await db<FolderRow>("file_folder").where({ customer_id: customerId }).whereNull("parent_id").first()) as FolderRow;
}

export function customerIdOf(row: { customer_id: string | number }): number {
  return Number(row.customer_id);
}
