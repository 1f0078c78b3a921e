// GET /api/v2/file/view/summary: "Page (folders and items)". Folders (matched by
// folderSearch, projected by folderSelect) come first, then files (fileSearch,
// quickFilterId, select); page and size run over that concatenation, sort applies to
// each list as far as it knows the fields (summary-sort.ts).
import type { HandlerContext } from "@connectrpc/connect";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
import type { FileSummaryItem, GetFileSummaryRequest } from "@signage/contracts/signage/media/v1/file_pb";
import { requireAuth } from "@signage/auth";
import { resolvePaging } from "@signage/query";
import { maxPageSizeOf } from "@signage/runtime";
import { listFolders } from "../folders/folder-list.js";
import { listFiles } from "./file-list.js";
import { splitSummarySort } from "./summary-sort.js";
import type { FileDeps } from "./file-deps.js";

export async function fileSummary(ctx: HandlerContext, deps: FileDeps, req: GetFileSummaryRequest) {
  // "the endpoint may impose a lower cap": capped first, as listRpc caps both lists below (this
  // method's max_page_size), so offset, totalPages and last count in pages of the size rendered.
  const { page, size } = resolvePaging(req.page, req.size, { maxSize: maxPageSizeOf(ctx.method) });
  const sort = splitSummarySort(req.sort);
  // Its folder part is a folder list: the tenant's root exists before it runs, as GET /api/v2/fileFolder
  // makes sure ("Root folder: auto-created per customer"), also right after the customer's create.
  await deps.listedRoots.ensureFor(ctx, requireAuth(ctx));
  // The folder page of the same number covers exactly the folder part of this page.
  const folders = await listFolders(ctx, deps, { sort: sort.folders, page, size, search: req.folderSearch, select: req.folderSelect } as ListQuery, { names: FOLDER_NAMES });
  const folderTotal = Number(folders.page.totalElements);
  const offset = page * size;
  const fileQuery = { sort: sort.files, search: req.fileSearch, select: req.select, quickFilterId: req.quickFilterId } as ListQuery;

  const items: FileSummaryItem[] = folders.content.map((folder) => ({ item: { case: "folder", value: folder } }) as FileSummaryItem);
  const fileStart = Math.max(0, offset - folderTotal);
  const wanted = size - items.length;
  // Files from fileStart on: at most two pages of `size` cover that window.
  const firstPage = Math.floor(fileStart / size);
  const first = await listFiles(ctx, deps, { ...fileQuery, page: firstPage, size } as ListQuery, { names: FILE_NAMES });
  const fileTotal = Number(first.page.totalElements);
  let files = first.content;
  const skip = fileStart - firstPage * size;
  if (wanted > 0 && skip + wanted > files.length && (firstPage + 1) * size < fileTotal) {
    files = files.concat((await listFiles(ctx, deps, { ...fileQuery, page: firstPage + 1, size } as ListQuery, { names: FILE_NAMES })).content);
  }
  if (wanted > 0) for (const file of files.slice(skip, skip + wanted)) items.push({ item: { case: "file", value: file } } as FileSummaryItem);

  const total = folderTotal + fileTotal;
  const totalPages = Math.ceil(total / size);
  return {
    content: items,
    page: {
      number: page,
      size,
      numberOfElements: items.length,
      totalElements: BigInt(total),
      totalPages,
      first: page === 0,
      last: page >= totalPages - 1,
      // Per row kind (the gateway leaves out what a row's own list did not select).
      selectedFields: [...folders.page.selectedFields.map((f) => `folder.${f}`), ...first.page.selectedFields.map((f) => `file.${f}`)],
    },
  };
}

// This endpoint's names for the lists' search and select: errors name what the caller sent.
const FOLDER_NAMES = { search: "folderSearch", select: "folderSelect" };
const FILE_NAMES = { search: "fileSearch" };
