// GET /api/v2/fileFolder and single-folder reads: listRpc, then per-caller fields
// (filtered folders' contents: filtered-folder-counts.ts).
import type { ListOptions } from "../files/file-list.js";
import type { HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import { requireAuth, type AuthContext } from "@signage/auth";
import { listRpc } from "@signage/runtime";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
import { FileFolderSchema, type FileFolder } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { FOLDER_DEFAULT_EXTRAS, FOLDER_SINGLE_SELECT, fileFolderResource, teamRestrictedFolderResource } from "./file-folder-resource.js";
import { selectsField, widenSelect } from "../files/select-defaults.js";
import { callerCannotWrite } from "../files/caller.js";
import { folderNotFound } from "./folder-repository.js";
import { completeFilteredFolders } from "./filtered-folder-counts.js";
import { completeFolderContents } from "./folder-contents.js";
import { completeFolderReadOnly, folderVisibility } from "./folder-visibility.js";
import type { FileDeps } from "../files/file-deps.js";

export async function listFolders(ctx: HandlerContext, deps: FileDeps, query: ListQuery | undefined, options: ListOptions = {}) {
  const { extend, names } = options;
  const auth = requireAuth(ctx);
  const select = widenSelect(fileFolderResource, query?.select, FOLDER_DEFAULT_EXTRAS, names?.select);
  const q = { ...query, select, includeReadOnlyInfo: query?.includeReadOnlyInfo || selectsField(select, "readOnly") } as ListQuery;
  const teams = await deps.teams.access?.(auth);
  const restricted = teams !== undefined && teams.kind !== "full";
  const resource = restricted ? teamRestrictedFolderResource : fileFolderResource;
  // A team-restricted caller's visibility and readOnly are folder-visibility.ts's (the root is shown to it),
  // not listRpc's `teams`, which would hide a root without teams where the customer shows only team items.
  const visible = restricted ? folderVisibility(teams) : undefined;
  const scoped = visible ? (qb: Knex.QueryBuilder) => void qb.where(visible).where((rest) => void extend?.(rest)) : extend;
  const result = await listRpc(ctx, { knex: deps.knex, resource, message: FileFolderSchema, query: q, scope: auth.scope, extend: scoped, teams: restricted ? undefined : teams, names });
  if (restricted) await completeFolderReadOnly(deps.knex, result.content, teams);
  const contentFields = { fileCount: selectsField(select, "fileCount"), firstFileThumbnail: selectsField(select, "firstFileThumbnail") };
  if (contentFields.fileCount || contentFields.firstFileThumbnail) {
    if (restricted) await completeFolderContents(deps.knex, result.content, contentFields, teams);
    await completeFilteredFolders(ctx, deps, result.content, contentFields, teams);
  }
  for (const folder of result.content) completeFolder(folder, auth, deps);
  return result;
}

/** One whole folder, with its real team assignments (never a [] claiming "no teams"). */
export async function readFolder(ctx: HandlerContext, deps: FileDeps, id: string): Promise<FileFolder> {
  const { content } = await listFolders(ctx, deps, { size: 1, select: FOLDER_SINGLE_SELECT } as ListQuery, { extend: (qb) => qb.where("f.id", id) });
  if (!content[0]) throw folderNotFound(id);
  return content[0];
}

export function completeFolder(folder: FileFolder, auth: AuthContext, deps: Pick<FileDeps, "urls">): void {
  if (folder.readOnly !== undefined) folder.readOnly = folder.readOnly || callerCannotWrite(auth);
  if (folder.firstFileThumbnail !== undefined) folder.firstFileThumbnail = deps.urls.urlOf(folder.firstFileThumbnail, "thumbnail");
}
