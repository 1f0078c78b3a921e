/**
 * Minimal structured logger, shaped so a pino logger can be passed as-is.
 * Kept local (not pino) so the library has no logging dependency.
 */
export interface LogFn {
  (obj: object, msg?: string): void;
  (msg: string): void;
}

export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

const noop: LogFn = () => {};

export const noopLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };
