import { hostname } from "node:os";
import { isSpanContextValid, trace } from "@opentelemetry/api";
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from "pino";
import { serializeError } from "./error-serializer.js";

export type { Logger } from "pino";

export interface LoggerOptions {
  /** Service name, written as the `service` field of every line. */
  name: string;
  level?: LevelWithSilent;
  /** Where JSON lines go; stdout when omitted. Tests pass a stream to capture. */
  destination?: DestinationStream;
}

/**
 * Adds the active span's ids so a log line can be joined to its trace.
 * Reads the OTel context at call time, so it works for child loggers too.
 */
export function traceMixin(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const ctx = span.spanContext();
  if (!isSpanContextValid(ctx)) return {};
  return { trace_id: ctx.traceId, span_id: ctx.spanId, trace_flags: ctx.traceFlags.toString(16).padStart(2, "0") };
}

export function createLogger({ name, level = "info", destination }: LoggerOptions): Logger {
  const options = {
    level,
    // hostname is the pod name under Kubernetes.
    base: { service: name, pid: process.pid, hostname: hostname() },
    mixin: traceMixin,
    // Level as a label ("info"), not pino's number: easier to query in a log store.
    formatters: { level: (label: string) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Database errors carry row values (detail, where...): see error-serializer.ts.
    serializers: { err: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}
