import { readPostmasterPid } from "./postmaster-pid.js";

/**
 * Safety net for a composition that exits without calling stop(): postgres
 * is a separate process and would otherwise outlive us, holding the data dir
 * lock (next start fails). The 'exit' event is synchronous, so we only send
 * SIGINT (fast shutdown); postgres finishes on its own. Does not help on
 * SIGKILL or an unhandled SIGTERM (Node then emits no 'exit').
 * Returns the unregister function.
 */
export async function guardProcessExit(pgDir: string): Promise<() => void> {
  const pid = await readPostmasterPid(pgDir);
  if (pid === undefined) throw new Error(`no postmaster.pid in ${pgDir}`);
  const onExit = () => {
    try {
      process.kill(pid, "SIGINT");
    } catch {
      // Already gone.
    }
  };
  process.on("exit", onExit);
  return () => process.off("exit", onExit);
}
