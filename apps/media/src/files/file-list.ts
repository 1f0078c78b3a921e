// GET /api/v2/file and single-file reads: the common list through listRpc,
// then the per-caller fields (readOnly, download URLs).
import type { HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import { requireAuth, type AuthContext } from "@signage/auth";
import { listRpc, type ListRpcOptions } from "@signage/runtime";
import type { DescMessage } from "@bufbuild/protobuf";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
import { FileSchema, type File } from "@signage/contracts/signage/media/v1/file_pb";
import { FILE_SINGLE_SELECT, fileResource, locationSource, teamRestrictedFileResource } from "./file-resource.js";
import { selectsField } from "./select-defaults.js";
import { callerCannotWrite } from "./caller.js";
import { checkCallerSearch, ownFilterFolderId, resolveFilteredFolderSearch } from "../folders/filtered-folder-search.js";
import { fileNotFound } from "./file-repository.js";
import { completeDuplicates } from "./duplicates.js";
import type { FileDeps } from "./file-deps.js";

/** Service conditions beside the list's own (`extend`), and the endpoint's own names for search/select. */
export interface ListOptions {
  extend?: (qb: Knex.QueryBuilder) => void;
  names?: ListRpcOptions<DescMessage>["names"];
}

export async function listFiles(ctx: HandlerContext, deps: FileDeps, query: ListQuery | undefined, options: ListOptions = {}) {
  const { extend, names } = options;
  const auth = requireAuth(ctx);
  // Two independent lookups (the filtered-folder check, the caller's teams): one round trip, not two.
  const [filtered, teams] = await Promise.all([resolveFilteredFolderSearch(deps.knex, deps.storedFolders, auth.scope, query), deps.teams.access?.(auth)]);
  const resolved = filtered.query;
  const select = resolved?.select;
  const q = { ...resolved, includeReadOnlyInfo: resolved?.includeReadOnlyInfo || (select !== undefined && selectsField(select, "readOnly")) } as ListQuery;
  const quickFilterOfFolder = ownFilterFolderId(filtered, teams);
  const restricted = teams !== undefined && teams.kind !== "full";
  const resource = restricted ? teamRestrictedFileResource : fileResource;
  checkCallerSearch(filtered, resource, names?.search ?? "search");
  const result = await listRpc(ctx, { knex: deps.knex, resource, message: FileSchema, query: q, scope: auth.scope, extend, teams, quickFilters: deps.quickFilters, quickFilterOfFolder, names });
  if (restricted) await completeDuplicates(deps.knex, result.content, teams);
  for (const file of result.content) completeFile(file, auth, deps);
  return result;
}

/**
 * One whole file (stored and computed fields, and its real team assignments: a single-file
 * response cannot leave the repeated field out, and [] would claim "no teams"), or
 * file.error.notFound.
 */
export async function readFile(ctx: HandlerContext, deps: FileDeps, id: string): Promise<File> {
  const { content } = await listFiles(ctx, deps, { size: 1, select: FILE_SINGLE_SELECT } as ListQuery, { extend: (qb) => qb.where("file.id", id) });
  if (!content[0]) throw fileNotFound(id);
  return content[0];
}

/** Fills the fields that depend on the caller or on storage; untouched when not selected. */
export function completeFile(file: File, auth: AuthContext, deps: Pick<FileDeps, "urls">): void {
  // Team read-only (listRpc's teams hook) or a role without write access.
  if (file.readOnly !== undefined) file.readOnly = file.readOnly || callerCannotWrite(auth);
  if (file.location !== undefined) {
    // Signed with the file's name: the download answers `Content-Disposition: inline` with it.
    const { key, name } = locationSource(file.location);
    file.location = deps.urls.urlOf(key, "file", name);
  }
  if (file.thumbnail !== undefined) file.thumbnail = deps.urls.urlOf(file.thumbnail, "thumbnail");
}
