// A file list filtered by `fileFolderId` first checks whether the folder is a
// filtered (virtual) one, which costs a round trip before the list itself can
// start. A folder's type is fixed when it is created, so "this id is a stored
// folder" never goes stale: remembered once, later lists skip the check. A
// deleted folder stays remembered harmlessly (the list then finds no files, as
// it would for any unknown id). Filtered folders are not remembered: their
// quick filter and tenant are read each time.

import { createBoundedSet } from "./bounded-set.js";

export interface StoredFolderMemo {
  isStored(folderId: string): boolean;
  rememberStored(folderId: string): void;
}

/** At most `maxEntries` ids (the oldest goes first). */
export function createStoredFolderMemo(maxEntries = 50_000): StoredFolderMemo {
  const ids = createBoundedSet<string>(maxEntries);
  return { isStored: (folderId) => ids.has(folderId), rememberStored: (folderId) => ids.add(folderId) };
}
