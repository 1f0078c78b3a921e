// NATS_STREAM_REPLICAS and DATABASE_POOL_MAX in a service process's configuration: validated
// with a clear message, and the replicas handed to the event bus.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@signage/platform";
import { serviceProcessConfigSchema } from "../src/config.js";
import { busOptionsOf } from "../src/run-standalone.js";

const REQUIRED = { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/postgres", NATS_URL: "nats://127.0.0.1:4222" };
const load = (env: Record<string, string>) => loadConfig(serviceProcessConfigSchema, { ...REQUIRED, ...env });

describe("NATS_STREAM_REPLICAS", () => {
  it("is unset by default (1 for a new stream, an existing one keeps its count)", () => {
    expect(load({}).NATS_STREAM_REPLICAS).toBeUndefined();
    expect(busOptionsOf(load({})).replicas).toBeUndefined();
  });

  it("is handed to the event bus", () => {
    expect(busOptionsOf(load({ NATS_STREAM_REPLICAS: "3" }))).toMatchObject({ replicas: 3, streamName: "SIGNAGE_EVENTS", subjectPrefix: "signage" });
  });

  it.each(["0", "6", "2.5", "three"])("refuses %s with a clear message", (value) => {
    expect(() => load({ NATS_STREAM_REPLICAS: value })).toThrow(ConfigError);
    expect(() => load({ NATS_STREAM_REPLICAS: value })).toThrow(/NATS_STREAM_REPLICAS: .*(whole number from 1 to 5|expected number)/);
  });
});

describe("DATABASE_POOL_MAX", () => {
  it("takes 1 to 100", () => {
    expect(load({ DATABASE_POOL_MAX: "25" }).DATABASE_POOL_MAX).toBe(25);
  });

  it.each(["0", "101", "1.5"])("refuses %s with a clear message", (value) => {
    expect(() => load({ DATABASE_POOL_MAX: value })).toThrow(/DATABASE_POOL_MAX: DATABASE_POOL_MAX must be a whole number from 1 to 100/);
  });
});
