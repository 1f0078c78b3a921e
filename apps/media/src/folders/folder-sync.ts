// Cloud-drive synced folders (alpha, beta, gamma) are a later issue. Here: the
// request validation of every sync endpoint, then 501 (never a fake success).
import { Code, type HandlerContext } from "@connectrpc/connect";
import { requireAuth, serviceError } from "@signage/auth";
import { SyncMode, type SyncedFolderSettings } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { writeTenant } from "../files/caller.js";
import { missingParameter } from "@signage/runtime";
import type { FileDeps } from "../files/file-deps.js";
import { checkFolderName, requireParentId } from "./folder-create.js";
import { requireFolder, requireStoredFolder } from "./folder-repository.js";
import { assertMayCreateIn } from "./root-creation.js";

export type SyncSource = "alpha" | "beta" | "gamma";

const REQUIRED: Record<SyncSource, (keyof SyncedFolderSettings)[]> = {
  alpha: ["alphaCredentialId", "alphaFolderId", "fileTypes"],
  beta: ["betaTenantId", "driveId", "betaDriveFolderId", "fileTypes"],
  gamma: ["gammaCredentialId", "gammaFolderId"],
};

function notImplemented(what: string) {
  return serviceError(Code.Unimplemented, "fileFolder.error.syncNotImplemented", `${what}: cloud-drive sync (alpha, beta, gamma) is not implemented yet`);
}

/** Checks the documented required fields of a settings body. */
export function checkSyncSettings(source: SyncSource, settings: SyncedFolderSettings | undefined, required = REQUIRED[source]): void {
  for (const field of required) {
    const value = settings?.[field];
    if (value === undefined || value === null || (typeof value === "string" && !value.trim()) || (Array.isArray(value) && value.length === 0)) {
      throw missingParameter(field);
    }
  }
  // The gateway parses syncMode by name; a gRPC caller's number the contract does not define is as wrong (400, not 501).
  const syncMode = settings?.syncMode;
  if (syncMode !== undefined && SyncMode[syncMode] === undefined) {
    throw serviceError(Code.InvalidArgument, "fileFolder.error.invalidValue", `syncMode ${syncMode} is not a defined value`, { field: "syncMode", value: syncMode });
  }
}

export async function createSyncedFolder(ctx: HandlerContext, deps: FileDeps, source: SyncSource, input: { parentId?: string; name?: string; settings?: SyncedFolderSettings }): Promise<never> {
  const auth = requireAuth(ctx);
  const customerId = writeTenant(auth);
  const parentId = requireParentId(input.parentId);
  checkFolderName(input.name);
  checkSyncSettings(source, input.settings);
  // Validated as a folder create is (folder-create.ts), team checks included: a parent the caller's teams hide
  // is not found and one they hold read-only refused, before the 501 (which would tell a hidden parent exists).
  const parent = await requireStoredFolder(deps.knex, customerId, parentId, false, await deps.teams.access?.(auth));
  await assertMayCreateIn(deps.knex, deps.teams, auth, { customerId, parent }, [], false);
  throw notImplemented(`Creating a ${source} synced folder`);
}

/** Operations on an existing synced folder: the folder must exist and be synced, then 501. */
export async function onSyncedFolder(ctx: HandlerContext, deps: FileDeps, folderId: string | undefined, what: string, source?: SyncSource): Promise<never> {
  const auth = requireAuth(ctx);
  if (!folderId?.trim()) throw missingParameter("folderId");
  const folder = await requireFolder(deps.knex, auth.scope, folderId.trim());
  // Every one of these changes the folder: one the caller's teams hide is not found (404), one they hold
  // read-only refused (403), before "not synced" (a 400 would tell a hidden folder exists). The root is
  // shown to every team user and is never synced.
  if (folder.parent_id !== null) await deps.teams.assertWritable(deps.knex, auth, "fileFolder", [folder.id]);
  if (folder.sync_source === null || (source !== undefined && folder.sync_source !== source)) {
    throw serviceError(Code.InvalidArgument, "fileFolder.error.notSynced", `Folder '${folder.id}' is not a ${source ?? "synced"} folder`, { fileFolderId: folder.id });
  }
  throw notImplemented(what);
}

export function syncNotImplemented(what: string): never {
  throw notImplemented(what);
}
