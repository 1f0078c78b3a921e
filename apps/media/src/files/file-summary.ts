// GET /api/v2/file/view/summary: "Page (folders and items)". Folders (matched by
// folderSearch, projected by folderSelect) come first, then files (fileSearch,
// quickFilterId, select); page and size run over that concatenation, sort applies to
// each list as far as it knows the fields (summary-sort.ts).
import type { HandlerContext } from "@connectrpc/connect";
import type { ListQuery } from "@signage/contracts/signage/common/v1/list_pb";
import { create, fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { ListValueSchema } from "@bufbuild/protobuf/wkt";
import type { FileFolder } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { ResourceTeamAssignmentSchema } from "@signage/contracts/signage/common/v1/teams_pb";
import { FileSummaryFileSchema, FileSummaryFolderSchema, FileSummaryItemSchema, type File, type FileSummaryFile, type FileSummaryFolder, type FileSummaryItem, type GetFileSummaryRequest } from "@signage/contracts/signage/media/v1/file_pb";
import { DEFAULT_PAGE_SIZE } from "@signage/query";
import { listFolders } from "../folders/folder-list.js";
import { listFiles } from "./file-list.js";
import { splitSummarySort } from "./summary-sort.js";
import type { FileDeps } from "./file-deps.js";

const MAX_SIZE = 1000;

/** A folder row of the summary: teamAssignments only when the folder page carries it. */
function summaryFolder(folder: FileFolder, selected: ReadonlySet<string>): FileSummaryFolder {
  const { $typeName: _, teamAssignments, ...rest } = folder;
  const carries = selected.size === 0 || selected.has("teamAssignments");
  return create(FileSummaryFolderSchema, {
    ...rest,
    teamAssignments: carries ? fromJson(ListValueSchema, teamAssignments.map((a) => toJson(ResourceTeamAssignmentSchema, a) as JsonValue)) : undefined,
  });
}

/**
 * A file row of the summary: tags and teamAssignments only when the page carries them
 * (`selected` empty = every field), as GET /api/v2/file renders them; never a [] that
 * claims "no tags" or "no teams" for a field that was not selected.
 */
function summaryFile(file: File, selected: ReadonlySet<string>): FileSummaryFile {
  const carries = (field: string) => selected.size === 0 || selected.has(field);
  const { $typeName: _, tags, teamAssignments, ...rest } = file;
  return create(FileSummaryFileSchema, {
    ...rest,
    tags: carries("tags") ? fromJson(ListValueSchema, tags) : undefined,
    teamAssignments: carries("teamAssignments") ? fromJson(ListValueSchema, teamAssignments.map((a) => toJson(ResourceTeamAssignmentSchema, a) as JsonValue)) : undefined,
  });
}

export async function fileSummary(ctx: HandlerContext, deps: FileDeps, req: GetFileSummaryRequest) {
  const page = req.page ?? 0;
  const size = req.size ?? DEFAULT_PAGE_SIZE;
  const sort = splitSummarySort(req.sort);
  // The folder page of the same number covers exactly the folder part of this page; it also validates page/size.
  const folders = await listFolders(ctx, deps, { sort: sort.folders, page, size, search: req.folderSearch, select: req.folderSelect } as ListQuery);
  const folderTotal = Number(folders.page.totalElements);
  const offset = page * size;
  const fileQuery = { sort: sort.files, search: req.fileSearch, select: req.select, quickFilterId: req.quickFilterId } as ListQuery;

  const folderFields = new Set(folders.page.selectedFields);
  const items: FileSummaryItem[] = folders.content.map((folder) => create(FileSummaryItemSchema, { item: { case: "folder", value: summaryFolder(folder, folderFields) } }));
  const fileStart = Math.max(0, offset - folderTotal);
  const wanted = size - items.length;
  // Files from fileStart on: at most two pages of `size` cover that window.
  const firstPage = Math.floor(fileStart / size);
  const first = await listFiles(ctx, deps, { ...fileQuery, page: firstPage, size } as ListQuery);
  const selected = new Set(first.page.selectedFields);
  const fileTotal = Number(first.page.totalElements);
  let files = first.content;
  const skip = fileStart - firstPage * size;
  if (wanted > 0 && skip + wanted > files.length && (firstPage + 1) * size < fileTotal) {
    files = files.concat((await listFiles(ctx, deps, { ...fileQuery, page: firstPage + 1, size } as ListQuery)).content);
  }
  if (wanted > 0) for (const file of files.slice(skip, skip + wanted)) items.push(create(FileSummaryItemSchema, { item: { case: "file", value: summaryFile(file, selected) } }));

  const total = folderTotal + fileTotal;
  const totalPages = Math.ceil(total / size);
  return {
    content: items,
    page: {
      number: page,
      size: Math.min(size, MAX_SIZE),
      numberOfElements: items.length,
      totalElements: BigInt(total),
      totalPages,
      first: page === 0,
      last: page >= totalPages - 1,
    },
  };
}
