// The summary's one `sort` serves two lists: a term only one of them knows (`size`
// is a file field, `parentId` a folder field) is kept for that list and dropped for
// the other. A term neither knows is a 400 naming the fields of both lists.
import { planList, UnknownFieldError, type ResourceRegistry } from "@signage/query";
import { fileFolderResource } from "../folders/file-folder-resource.js";
import { fileResource } from "./file-resource.js";

/** The unknown-field error when the resource has no such field; null when it knows it (a malformed term counts as known and fails there). */
function unknownIn(resource: ResourceRegistry, term: string): UnknownFieldError | null {
  try {
    planList(resource, { sort: [term] });
    return null;
  } catch (error) {
    if (error instanceof UnknownFieldError) return error;
    return null;
  }
}

export function splitSummarySort(sort: readonly string[]): { folders: string[]; files: string[] } {
  const folders: string[] = [];
  const files: string[] = [];
  for (const term of sort) {
    const notFolder = unknownIn(fileFolderResource, term);
    const notFile = unknownIn(fileResource, term);
    if (notFolder && notFile) {
      // Either list's fields sort the summary, so both are offered.
      throw new UnknownFieldError("sort", notFolder.field, [...new Set([...notFolder.knownFields, ...notFile.knownFields])]);
    }
    if (!notFolder) folders.push(term);
    if (!notFile) files.push(term);
  }
  return { folders, files };
}
