import pino from "pino";
import { expect, it } from "vitest";
import type { Logger } from "../src/index.js";

it("accepts a pino logger as the bus logger (compile-time check)", () => {
  const logger: Logger = pino({ level: "silent" });
  logger.error({ eventId: "x" }, "msg");
  logger.warn("plain message");
  expect(logger).toBeDefined();
});
