import { describe, expect, it } from "vitest";
import { diagToLogger } from "../src/telemetry/diag-logger.js";
import { createRateLimiter } from "../src/telemetry/rate-limiter.js";
import { memoryLogger } from "./support/memory-logger.js";

describe("diagToLogger", () => {
  it("logs one line per kind and window, the next one with the count held back; numbers do not make a new kind", () => {
    let now = 0;
    const { logger, lines } = memoryLogger("media");
    const diag = diagToLogger(logger, createRateLimiter({ windowMs: 60_000, now: () => now }));
    // How the SDK reports a failed export: the exception stringified to JSON.
    const failure = (port: number) => JSON.stringify({ message: `connect ECONNREFUSED 10.0.0.7:${port}`, stack: "Error: …", code: "ECONNREFUSED" });
    diag.error(failure(4318));
    diag.error(failure(4318));
    diag.error(failure(4319));
    diag.warn("Dropped 12 spans because maxQueueSize reached");
    diag.warn("Dropped 40 spans because maxQueueSize reached");
    diag.info("not logged");
    now = 60_000;
    diag.error(failure(4318));

    expect(lines().map(({ level, msg, suppressed, component }) => ({ level, msg, suppressed, component }))).toEqual([
      { level: "error", msg: "opentelemetry: connect ECONNREFUSED 10.0.0.7:4318", suppressed: undefined, component: "opentelemetry" },
      { level: "warn", msg: "opentelemetry: Dropped 12 spans because maxQueueSize reached", suppressed: undefined, component: "opentelemetry" },
      { level: "error", msg: "opentelemetry: connect ECONNREFUSED 10.0.0.7:4318", suppressed: 2, component: "opentelemetry" },
    ]);
  });
});
