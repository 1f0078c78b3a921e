// The file/folder dependencies from the module context. Team hooks, blob cleanup
// and URLs are the interim ones until teams (H1) and storage (H5) export theirs.
import { coreQuickFilters, type ModuleContext } from "@signage/runtime";
import { leaveBlobsToDeletedEventConsumers, noBlobUrlsYet } from "./blob-cleanup.js";
import type { FileDeps } from "./file-deps.js";
import { teamsNotAvailable } from "./team-hooks.js";

export function fileDepsOf(ctx: ModuleContext, overrides: Partial<FileDeps> = {}): FileDeps {
  return {
    knex: ctx.knex,
    outbox: ctx.outbox,
    newId: ctx.newId,
    logger: ctx.logger,
    teams: teamsNotAvailable,
    blobs: leaveBlobsToDeletedEventConsumers,
    urls: noBlobUrlsYet,
    quickFilters: coreQuickFilters(ctx.peers, "FILE"),
    ...overrides,
  };
}
