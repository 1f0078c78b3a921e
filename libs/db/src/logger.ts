/**
 * Minimal logging surface. Structurally compatible with pino and console, so
 * callers pass their own logger instead of this lib owning one.
 */
export interface DbLogger {
  debug?(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export const silentLogger: DbLogger = {
  info() {},
  warn() {},
  error() {},
};
