import type { Logger } from "pino";

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
  /** Overrides the default per-step timeout. */
  timeoutMs?: number;
}

/** The slice of `process` used here, injectable for tests. */
export interface ShutdownProcess {
  on(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
  exit(code: number): void;
}

export interface GracefulShutdownOptions {
  logger: Logger;
  /** Run in order, e.g. server (stop accepting + drain) -> bus -> DB -> telemetry. */
  steps: ShutdownStep[];
  /** Default timeout for each step. */
  timeoutMs: number;
  signals?: NodeJS.Signals[];
  process?: ShutdownProcess;
}

export interface GracefulShutdown {
  /** Runs the steps once (later calls share the run) and exits; resolves with the exit code. */
  shutdown(reason: string): Promise<number>;
  /** Removes the signal listeners (tests, or handing over to another handler). */
  uninstall(): void;
}

/**
 * On SIGTERM (Kubernetes) or SIGINT (Ctrl-C): run every step even if an
 * earlier one failed or timed out, so the DB and bus still get closed, then
 * exit 0, or 1 if any step failed. A second signal exits at once.
 */
export function installGracefulShutdown(options: GracefulShutdownOptions): GracefulShutdown {
  const { logger, steps, timeoutMs, signals = ["SIGTERM", "SIGINT"], process: proc = process } = options;
  let running: Promise<number> | undefined;

  const shutdown = (reason: string): Promise<number> => {
    running ??= (async () => {
      logger.info({ reason }, "shutting down");
      let failed = false;
      for (const step of steps) {
        const started = Date.now();
        try {
          await withTimeout(Promise.resolve().then(step.run), step.timeoutMs ?? timeoutMs, step.name);
          logger.info({ step: step.name, ms: Date.now() - started }, "shutdown step done");
        } catch (err) {
          failed = true;
          logger.error({ step: step.name, err }, "shutdown step failed");
        }
      }
      const code = failed ? 1 : 0;
      logger.info({ code }, "shutdown complete");
      logger.flush();
      proc.exit(code);
      return code;
    })();
    return running;
  };

  const listeners = signals.map((signal) => {
    const listener = () => {
      if (running) {
        logger.warn({ signal }, "second signal during shutdown; exiting now");
        proc.exit(1);
        return;
      }
      void shutdown(signal);
    };
    proc.on(signal, listener);
    return { signal, listener };
  });

  return {
    shutdown,
    uninstall() {
      for (const { signal, listener } of listeners) proc.off(signal, listener);
    },
  };
}

async function withTimeout(promise: Promise<void>, ms: number, name: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`step "${name}" timed out after ${ms} ms`)), ms);
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
