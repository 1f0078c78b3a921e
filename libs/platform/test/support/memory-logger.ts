import { Writable } from "node:stream";
import { createLogger, type Logger } from "./platform.js";

/** A logger that keeps its JSON lines in memory for assertions. */
export function memoryLogger(name = "test"): { logger: Logger; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  const logger = createLogger({ name, level: "debug", destination });
  return {
    logger,
    lines: () =>
      chunks
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
