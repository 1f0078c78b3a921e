// Background sweeps (expired upload sessions, outdated files, orphan blobs...)
// share one schedule: a round every `intervalMs`, never two rounds of the same
// job at once in a process (a slow round makes the next one skip), a failure
// logged and retried next round, and `stop()` waiting for the round in flight.
// Replicas coordinate in the job itself (SKIP LOCKED, advisory locks).
import type { Logger } from "@signage/platform";

export interface PeriodicJob {
  stop(): Promise<void>;
}

export interface PeriodicJobOptions {
  /** Short name for the logs, e.g. "validity sweep". */
  name: string;
  intervalMs: number;
  /** One round; a positive number is logged as what the round did. */
  run(): Promise<number | null | void>;
  logger: Pick<Logger, "info" | "warn">;
}

export function schedulePeriodicJob({ name, intervalMs, run, logger }: PeriodicJobOptions): PeriodicJob {
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) throw new Error(`${name}: interval must be a positive number of ms, got ${intervalMs}`);
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = run()
      .then((done) => {
        if (typeof done === "number" && done > 0) logger.info({ job: name, done }, `${name}: round done`);
      })
      .catch((err) => logger.warn({ err, job: name }, `${name} failed; retried next round`))
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
