import { context, trace, TraceFlags } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryLogger } from "./support/memory-logger.js";

const spanContext = {
  traceId: "0af7651916cd43dd8448eb211c80319c",
  spanId: "b7ad6b7169203331",
  traceFlags: TraceFlags.SAMPLED,
};

describe("createLogger", () => {
  // What startTelemetry installs; without it context.with() is a no-op.
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => context.disable());

  it("writes JSON with service, level label and time", () => {
    const { logger, lines } = memoryLogger("core");
    logger.info({ customerId: 7 }, "hello");
    const [line] = lines();
    expect(line).toMatchObject({ service: "core", level: "info", msg: "hello", customerId: 7 });
    expect(typeof line.time).toBe("string");
    expect(line).not.toHaveProperty("trace_id");
  });

  it("adds trace_id/span_id of the active span, in child loggers too", async () => {
    const { logger, lines } = memoryLogger("core");
    const child = logger.child({ rpc: "Probe/Public" });
    await context.with(trace.setSpanContext(context.active(), spanContext), async () => {
      await Promise.resolve();
      logger.info("in span");
      child.warn("child in span");
    });
    logger.info("outside");
    const [inSpan, childInSpan, outside] = lines();
    const ids = { trace_id: spanContext.traceId, span_id: spanContext.spanId, trace_flags: "01" };
    expect(inSpan).toMatchObject(ids);
    expect(childInSpan).toMatchObject({ ...ids, rpc: "Probe/Public", level: "warn" });
    expect(outside).not.toHaveProperty("trace_id");
  });

  it("ignores an invalid span context", () => {
    const { logger, lines } = memoryLogger("core");
    const invalid = { traceId: "0".repeat(32), spanId: "0".repeat(16), traceFlags: 0 };
    context.with(trace.setSpanContext(context.active(), invalid), () => logger.info("x"));
    expect(lines()[0]).not.toHaveProperty("trace_id");
  });
});
