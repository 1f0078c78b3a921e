// The summary's one `sort` serves two lists: a term only one of them knows (`size`
// is a file field, `parentId` a folder field) is kept for that list and dropped for
// the other. A term neither knows goes to both, so the folder list answers its usual 400.
import { planList, UnknownFieldError, type ResourceRegistry } from "@signage/query";
import { fileFolderResource } from "../folders/file-folder-resource.js";
import { fileResource } from "./file-resource.js";

/** False only when the resource has no such field; a malformed term counts as known (and fails there). */
function knows(resource: ResourceRegistry, term: string): boolean {
  try {
    planList(resource, { sort: [term] });
    return true;
  } catch (error) {
    if (error instanceof UnknownFieldError) return false;
    return true;
  }
}

export function splitSummarySort(sort: readonly string[]): { folders: string[]; files: string[] } {
  const folders: string[] = [];
  const files: string[] = [];
  for (const term of sort) {
    const forFolders = knows(fileFolderResource, term);
    const forFiles = knows(fileResource, term);
    if (forFolders || !forFiles) folders.push(term);
    if (forFiles || !forFolders) files.push(term);
  }
  return { folders, files };
}
