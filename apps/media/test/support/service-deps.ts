// FileDeps for tests that call the service's transactional parts directly (a crash between
// commit and what follows it, a transaction held open across a concurrent request): the
// platform's database and bus, no teams, no signed URLs, a store of the test's choosing.
import type { Knex } from "knex";
import { newId } from "@signage/db";
import { createOutbox, type EventBus } from "@signage/events";
import { createLogger } from "@signage/platform";
import { createWakeSignal, type WakeSignal } from "@signage/runtime";
import type { BlobStore } from "@signage/storage";
import { noBlobUrlsYet } from "../../src/files/blob-cleanup.js";
import type { FileDeps } from "../../src/files/file-deps.js";
import { teamsNotAvailable } from "../../src/files/team-hooks.js";
import { createStoredFolderMemo } from "../../src/folders/stored-folder-memo.js";
import { createListedRoots } from "../../src/folders/listed-roots.js";

const silent = createLogger({ name: "media-service-test", level: "silent" });

/** Not started: the module's own relay publishes what this outbox stores in the same table. */
export function serviceDeps(knex: Knex, bus: EventBus, store: BlobStore, blobSweep: WakeSignal = createWakeSignal()): FileDeps {
  return { knex, outbox: createOutbox({ knex, bus }), newId, logger: silent, teams: teamsNotAvailable, store, urls: noBlobUrlsYet, storedFolders: createStoredFolderMemo(), listedRoots: createListedRoots({ knex, newId, logger: silent }), blobSweep };
}

/** A store for tests that must not touch bytes: any use fails the test. */
export const noStore = new Proxy({} as BlobStore, {
  get: () => () => {
    throw new Error("this test has no blob store");
  },
});
