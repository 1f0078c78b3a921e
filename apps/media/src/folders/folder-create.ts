// Creating folders: "To create something in the root, first read the root id
// ...; null cannot be passed as parent." A folder's path is its parent's path
// plus its own id.
import { Code, type HandlerContext } from "@connectrpc/connect";
import { requireAuth, serviceError } from "@signage/auth";
import { assertMayCreateIn } from "./root-creation.js";
import { enqueueQuickFilterUsage, parseTeamIdsParam } from "@signage/runtime";
import type { FileFolder } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { writeTenant } from "../files/caller.js";
import type { FileDeps } from "../files/file-deps.js";
import { requireStoredFolder } from "./folder-repository.js";
import { FOLDER_TYPE_FILTERED, FOLDER_TYPE_STORED } from "./folder-row.js";
import { readFolder } from "./folder-list.js";
import { requireFileQuickFilter } from "./folder-quick-filter.js";

export interface NewFolderInput {
  parentId?: string;
  name?: string;
  teamIds?: string;
  inheritParentTeams?: boolean;
  cleanupOutdatedFiles?: boolean;
  /** Filtered folders only. */
  quickFilterId?: string;
}

export function checkFolderName(name: string | undefined, key = "name"): string {
  const trimmed = (name ?? "").trim();
  if (!trimmed) throw serviceError(Code.InvalidArgument, "fileFolder.error.invalidName", `A folder needs a non-empty ${key}`, { parameter: key });
  if (trimmed.length > 255) throw serviceError(Code.InvalidArgument, "fileFolder.error.invalidName", "A folder name has at most 255 characters", { parameter: key });
  return trimmed;
}

export function requireParentId(parentId: string | undefined): string {
  if (!parentId?.trim()) {
    throw serviceError(Code.InvalidArgument, "fileFolder.error.parentRequired", "parentId is required; read the root folder id with search=parentId=NULL", { parameter: "parentId" });
  }
  return parentId.trim();
}

export async function createFolder(ctx: HandlerContext, deps: FileDeps, input: NewFolderInput): Promise<FileFolder> {
  const auth = requireAuth(ctx);
  const customerId = writeTenant(auth);
  const parentId = requireParentId(input.parentId);
  const name = checkFolderName(input.name);
  const assignments = parseTeamIdsParam(input.teamIds);
  const filtered = input.quickFilterId !== undefined;
  if (filtered && !input.quickFilterId?.trim()) {
    throw serviceError(Code.InvalidArgument, "fileFolder.error.quickFilterRequired", "A filtered folder needs a quickFilterId", { parameter: "quickFilterId" });
  }
  // Before the transaction (no row lock held over an RPC): a FILE quick filter of the folder's tenant.
  if (filtered) await requireFileQuickFilter(ctx, deps, input.quickFilterId!.trim(), customerId);
  const id = deps.newId();
  const access = await deps.teams.access?.(auth);
  await deps.knex.transaction(async (trx) => {
    // Held until commit: a delete or move of the parent is waited for (then 404, or the new path), or waits for this.
    // A parent the caller's teams hide is not found, filtered or not.
    const parent = await requireStoredFolder(trx, customerId, parentId, "share", access);
    await assertMayCreateIn(trx, deps.teams, auth, { customerId, parent }, assignments, input.inheritParentTeams === true);
    await trx("file_folder").insert({
      id,
      customer_id: customerId,
      name,
      parent_id: parent.id,
      path: [...parent.path, id],
      file_folder_type: filtered ? FOLDER_TYPE_FILTERED : FOLDER_TYPE_STORED,
      cleanup_outdated_files: input.cleanupOutdatedFiles ?? false,
      quick_filter_id: filtered ? input.quickFilterId!.trim() : null,
    });
    await deps.teams.assignOnCreate(trx, "fileFolder", id, customerId, assignments, input.inheritParentTeams ? parent.id : undefined);
    // Core refuses to delete a quick filter a filtered folder uses.
    if (filtered) await enqueueQuickFilterUsage(deps.outbox, trx, { customerId, quickFilterId: input.quickFilterId!.trim(), usedByType: "FILE_FOLDER", usedById: id, used: true });
  });
  return readFolder(ctx, deps, id);
}
