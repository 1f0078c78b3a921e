import type { DiagLogger } from "@opentelemetry/api";
import type { Logger } from "pino";
import type { RateLimiter } from "./rate-limiter.js";

/**
 * OpenTelemetry's own warnings and errors (an unreachable collector, rejected exports,
 * a full span queue) as log lines of the service: without this they go nowhere and a
 * tracing outage is silent. Repeats of one kind are held back by `limiter` (an outage
 * fails every export), the next line says how many were.
 */
export function diagToLogger(logger: Logger, limiter: RateLimiter): DiagLogger {
  const emit = (level: "error" | "warn") => (message: string, ...args: unknown[]) => {
    const text = describe(message, args);
    const decision = limiter.take(`${level}:${kindOf(text)}`);
    if (!decision.allowed) return;
    const fields = decision.suppressedSince > 0 ? { suppressed: decision.suppressedSince } : {};
    logger[level]({ component: "opentelemetry", ...fields }, `opentelemetry: ${text}`);
  };
  const ignore = () => undefined;
  return { error: emit("error"), warn: emit("warn"), info: ignore, debug: ignore, verbose: ignore };
}

/**
 * The SDK reports a failed export as the exception stringified to JSON (stack and all):
 * its message is what is worth a line. Other diag messages are text, with arguments.
 */
function describe(message: string, args: unknown[]): string {
  const text = exceptionMessage(message) ?? message;
  const extra = args.map((a) => (a instanceof Error ? a.message : typeof a === "string" ? a : safeJson(a))).filter(Boolean);
  return [text, ...extra].join(" ").slice(0, 1000);
}

function exceptionMessage(message: string): string | undefined {
  if (!message.startsWith("{")) return undefined;
  try {
    const parsed = JSON.parse(message) as { message?: unknown };
    return typeof parsed.message === "string" ? parsed.message : undefined;
  } catch {
    return undefined;
  }
}

/** Numbers (ports, counts, ids) do not make a new kind: "dropped 12 spans" and "dropped 40 spans" are one. */
function kindOf(text: string): string {
  return text.replace(/\d+/g, "#").slice(0, 200);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}
