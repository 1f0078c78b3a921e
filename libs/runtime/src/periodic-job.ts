// Background sweeps (expired upload sessions, outdated files, orphan blobs...)
// share one schedule: a round every `intervalMs`, never two rounds of the same
// job at once in a process (a slow round makes the next one skip), a failure
// logged and retried next round, and `stop()` waiting for the round in flight.
// Replicas coordinate in the job itself (SKIP LOCKED, advisory locks).
// A `WakeSignal` lets other code ask for a round now (e.g. after committing work
// the job does): it runs at once, or right after the round in flight, whose
// claim may have come before the new work.
import type { Logger } from "@signage/platform";

export interface PeriodicJob {
  stop(): Promise<void>;
}

/** "There is work for the job now"; a wake before the job is scheduled (or after it stopped) does nothing. */
export interface WakeSignal {
  wake(): void;
}

export interface WakeSource extends WakeSignal {
  /** The job's side: one listener at a time; returns how to stop listening. */
  listen(listener: () => void): () => void;
}

export function createWakeSignal(): WakeSource {
  let listener: (() => void) | undefined;
  return {
    wake: () => listener?.(),
    listen(next) {
      listener = next;
      return () => {
        if (listener === next) listener = undefined;
      };
    },
  };
}

export interface PeriodicJobOptions {
  /** Short name for the logs, e.g. "validity sweep". */
  name: string;
  intervalMs: number;
  /** One round; a positive number is logged as what the round did. */
  run(): Promise<number | null | void>;
  logger: Pick<Logger, "info" | "warn">;
  /** Runs a round when woken, besides the schedule. */
  wakeOn?: WakeSource;
  /**
   * A first round this long after scheduling, not only after a whole interval: a long interval
   * (hourly) would otherwise never come round in a process restarted more often.
   */
  firstRoundAfterMs?: number;
}

export function schedulePeriodicJob({ name, intervalMs, run, logger, wakeOn, firstRoundAfterMs }: PeriodicJobOptions): PeriodicJob {
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) throw new Error(`${name}: interval must be a positive number of ms, got ${intervalMs}`);
  let running: Promise<void> | undefined;
  let stopped = false;
  let wokenWhileRunning = false;

  const round = () => {
    if (stopped) return;
    running = run()
      .then((done) => {
        if (typeof done === "number" && done > 0) logger.info({ job: name, done }, `${name}: round done`);
      })
      .catch((err) => logger.warn({ err, job: name }, `${name} failed; retried next round`))
      .finally(() => {
        running = undefined;
        if (wokenWhileRunning) {
          wokenWhileRunning = false;
          round();
        }
      });
  };

  const timer = setInterval(() => {
    if (!running) round();
  }, intervalMs);
  timer.unref();
  const first =
    firstRoundAfterMs !== undefined && firstRoundAfterMs < intervalMs
      ? setTimeout(() => {
          if (!running) round();
        }, Math.max(0, firstRoundAfterMs)).unref()
      : undefined;
  const unlisten = wakeOn?.listen(() => {
    if (running) wokenWhileRunning = true;
    else round();
  });
  return {
    async stop() {
      stopped = true;
      unlisten?.();
      clearInterval(timer);
      clearTimeout(first);
      while (running) await running;
    },
  };
}
