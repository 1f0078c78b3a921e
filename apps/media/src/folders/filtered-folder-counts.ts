// fileCount and firstFileThumbnail of filtered folders (fileFolderType 2): what
// listing the folder shows the caller, i.e. its quick filter's files in the
// folder's tenant with the file list's team visibility. The resource's SQL
// counts files stored in a folder, which a virtual folder never holds.
// Each distinct quick filter of the page is resolved once (one core RPC), each
// distinct (tenant, quick filter) pair counted once.
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { readErrorDetail, tenantScope, type TeamAccess } from "@signage/auth";
import { ListQueryError } from "@signage/query";
import { listRpc, unknownQuickFilter, type QuickFilterResolver } from "@signage/runtime";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
import type { FileFolder } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { FileSchema } from "@signage/contracts/signage/media/v1/file_pb";
import { fileResource } from "../files/file-resource.js";
import type { FileDeps } from "../files/file-deps.js";
import { FOLDER_TYPE_FILTERED } from "./folder-row.js";

export interface FilteredFolderFields {
  fileCount: boolean;
  firstFileThumbnail: boolean;
}

interface FilteredRow {
  id: string;
  customer_id: string | number;
  quick_filter_id: string | null;
}

interface Contents {
  count: number;
  /** The first file's (by name) thumbnail blob key, as the stored folders' SQL answers it. */
  thumbnail?: string;
}

const EMPTY: Contents = { count: 0 };

/** Overwrites the selected fields of the page's filtered folders (before completeFolder turns keys into URLs). */
export async function completeFilteredFolders(
  ctx: HandlerContext,
  deps: Pick<FileDeps, "knex" | "quickFilters">,
  folders: FileFolder[],
  fields: FilteredFolderFields,
  teams: TeamAccess | undefined,
): Promise<void> {
  if ((!fields.fileCount && !fields.firstFileThumbnail) || folders.length === 0) return;
  // The page may not select fileFolderType or quickFilterId: read them by id.
  const rows: FilteredRow[] = await deps
    .knex("file_folder")
    .whereIn("id", folders.map((f) => f.id))
    .where({ file_folder_type: FOLDER_TYPE_FILTERED })
    .select("id", "customer_id", "quick_filter_id");
  if (rows.length === 0) return;

  const resolver = resolveOnce(deps.quickFilters);
  const byPair = new Map<string, Promise<Contents>>();
  const contentsOf = (row: FilteredRow) => {
    if (!row.quick_filter_id) return Promise.resolve(EMPTY);
    const key = `${row.customer_id}/${row.quick_filter_id}`;
    let found = byPair.get(key);
    // Folders sharing a filter count alike: the first one vouches that it is a folder's filter.
    if (!found) byPair.set(key, (found = filteredContents(ctx, deps, resolver, { customerId: Number(row.customer_id), quickFilterId: row.quick_filter_id, folderId: row.id }, fields, teams)));
    return found;
  };
  const results = new Map(await Promise.all(rows.map(async (row) => [row.id, await contentsOf(row)] as const)));

  for (const folder of folders) {
    const contents = results.get(folder.id);
    if (!contents) continue;
    if (fields.fileCount) folder.fileCount = BigInt(contents.count);
    if (fields.firstFileThumbnail) folder.firstFileThumbnail = contents.thumbnail;
  }
}

/** The folder's file list (one row, its total), as GET /api/v2/file?search=fileFolderId=<folder> answers it. */
async function filteredContents(
  ctx: HandlerContext,
  deps: Pick<FileDeps, "knex">,
  quickFilters: QuickFilterResolver,
  { customerId, quickFilterId, folderId }: { customerId: number; quickFilterId: string; folderId: string },
  fields: FilteredFolderFields,
  teams: TeamAccess | undefined,
): Promise<Contents> {
  const query = { size: 1, sort: ["name,asc", "id,asc"], select: fields.firstFileThumbnail ? "id,thumbnail" : "id", quickFilterId } as ListQuery;
  try {
    const { content, page } = await listRpc(ctx, { knex: deps.knex, resource: fileResource, message: FileSchema, query, scope: tenantScope(customerId), teams, quickFilters, quickFilterOfFolder: folderId });
    return { count: Number(page.totalElements), thumbnail: content[0]?.thumbnail };
  } catch (e) {
    // A filter core no longer compiles (unknown, another type) or whose criteria no longer fit
    // the file list: listing the folder answers 400, so it shows nothing. The folder list still answers.
    if (isUnusableQuickFilter(e)) return EMPTY;
    throw e;
  }
}

/** One core RPC per distinct quick filter id, however many folders (and tenants) share it. */
function resolveOnce(quickFilters: QuickFilterResolver | undefined): QuickFilterResolver {
  const resolved = new Map<string, Promise<string>>();
  return {
    resolve(ctx, quickFilterId, use) {
      if (!quickFilters) return Promise.reject(unknownQuickFilter(quickFilterId));
      let found = resolved.get(quickFilterId);
      if (!found) resolved.set(quickFilterId, (found = quickFilters.resolve(ctx, quickFilterId, use)));
      return found;
    },
  };
}

function isUnusableQuickFilter(e: unknown): boolean {
  if (e instanceof ListQueryError) return e.details.parameter === "quickFilter";
  return ConnectError.from(e).code === Code.InvalidArgument && (readErrorDetail(e)?.key.startsWith("quickFilter.error.") ?? false);
}
