import type { Logger } from "../../src/index.js";

export interface LogEntry {
  level: keyof Logger;
  obj: Record<string, unknown>;
  msg?: string;
}

/** A logger that records what it is given, for assertions on warnings and errors. */
export function recordingLogger(): Logger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at =
    (level: keyof Logger) =>
    (a: object | string, msg?: string): void => {
      if (typeof a === "string") entries.push({ level, obj: {}, msg: a });
      else entries.push({ level, obj: a as Record<string, unknown>, msg });
    };
  return { entries, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
