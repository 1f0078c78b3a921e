// The file/folder dependencies from the module context. Team hooks and URLs
// default to interim ones; the blob store has no default (deleting files must
// really delete their bytes).
import { coreQuickFilters, type ModuleContext } from "@signage/runtime";
import { noBlobUrlsYet } from "./blob-cleanup.js";
import type { FileDeps } from "./file-deps.js";
import { teamsNotAvailable } from "./team-hooks.js";
import { createStoredFolderMemo } from "../folders/stored-folder-memo.js";
import { createListedRoots } from "../folders/listed-roots.js";

export function fileDepsOf(ctx: ModuleContext, overrides: Partial<FileDeps> & Pick<FileDeps, "store" | "blobSweep">): FileDeps {
  return {
    knex: ctx.knex,
    outbox: ctx.outbox,
    newId: ctx.newId,
    logger: ctx.logger,
    teams: teamsNotAvailable,
    urls: noBlobUrlsYet,
    quickFilters: coreQuickFilters(ctx.peers, "FILE"),
    storedFolders: createStoredFolderMemo(),
    listedRoots: createListedRoots({ knex: ctx.knex, newId: ctx.newId, logger: ctx.logger, peers: ctx.peers }),
    ...overrides,
  };
}
