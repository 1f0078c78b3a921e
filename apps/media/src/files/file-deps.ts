// What the file and folder operations need, passed in by the module.
import type { Knex } from "knex";
import type { IdGenerator } from "@signage/db";
import type { Logger } from "@signage/platform";
import type { OutboxPort, QuickFilterResolver, WakeSignal } from "@signage/runtime";
import type { MediaTeamHooks } from "./team-hooks.js";
import type { BlobStore } from "@signage/storage";
import type { BlobUrls } from "./blob-cleanup.js";
import type { StoredFolderMemo } from "../folders/stored-folder-memo.js";
import type { ListedRoots } from "../folders/listed-roots.js";

export interface FileDeps {
  knex: Knex;
  /** Every event about a change is enqueued in that change's transaction (never published after commit). */
  outbox: OutboxPort;
  newId: IdGenerator;
  logger: Logger;
  teams: MediaTeamHooks;
  /** Where the files' bytes live; a delete removes them through blob intents (file-delete.ts). */
  store: BlobStore;
  urls: BlobUrls;
  /** Wakes the blob intent sweep (due intents of a big delete are removed there). */
  blobSweep: WakeSignal;
  /** Folder ids known to be stored (not filtered) folders: file lists by folder skip that check. */
  storedFolders: StoredFolderMemo;
  /** Folder lists of one tenant create its root when the customer.created event has not (yet). */
  listedRoots: ListedRoots;
  /** Resolves `quickFilterId` of file lists (and filtered folders) through core. */
  quickFilters?: QuickFilterResolver;
}
