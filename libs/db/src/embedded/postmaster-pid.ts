import { readFile } from "node:fs/promises";
import path from "node:path";

/** First line of `postmaster.pid` is the postmaster's pid (documented format); undefined when absent. */
export async function readPostmasterPid(pgDir: string): Promise<number | undefined> {
  try {
    const pid = Number((await readFile(path.join(pgDir, "postmaster.pid"), "utf8")).split("\n", 1)[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/**
 * Fails early, before a port is chosen, when a postmaster still owns the data
 * dir: typically an orphan of a SIGKILLed composition. Postgres would refuse
 * to start too (same liveness test), but with a less actionable message.
 */
export async function assertNotRunning(pgDir: string): Promise<void> {
  const pid = await readPostmasterPid(pgDir);
  if (pid === undefined || !isAlive(pid)) return; // stale file: postgres cleans it up itself
  throw new Error(
    `PostgreSQL is already running for ${pgDir} (pid ${pid}): left over from a crashed run, or another process uses the same DATA_DIR. Stop it with \`kill -INT ${pid}\`.`,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by someone else
  }
}
