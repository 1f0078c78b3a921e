import { describe, expect, it } from "vitest";
import { z } from "zod";
import { baseServiceConfigSchema, ConfigError, loadConfig, portSchema } from "./support/platform.js";

describe("loadConfig", () => {
  it("applies the base defaults", () => {
    expect(loadConfig(baseServiceConfigSchema, {})).toEqual({
      SERVICE_HOST: "127.0.0.1",
      SERVICE_PORT: 0,
      LOG_LEVEL: "info",
      SHUTDOWN_TIMEOUT_MS: 10_000,
      MAX_CONNECTION_AGE_MS: 300_000,
    });
  });

  it("coerces numbers and keeps optional URLs", () => {
    const config = loadConfig(baseServiceConfigSchema, {
      SERVICE_PORT: "50051",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      DATABASE_URL: "postgres://u:p@db:5432/signage",
      NATS_URL: "nats://a:4222,nats://b:4222",
      SHUTDOWN_TIMEOUT_MS: "2500",
      MAX_CONNECTION_AGE_MS: "0",
      UNRELATED: "ignored",
    });
    expect(config.SERVICE_PORT).toBe(50051);
    expect(config.MAX_CONNECTION_AGE_MS).toBe(0);
    expect(config.SHUTDOWN_TIMEOUT_MS).toBe(2500);
    expect(config.DATABASE_URL).toBe("postgres://u:p@db:5432/signage");
    expect(config).not.toHaveProperty("UNRELATED");
  });

  it("treats empty strings as unset", () => {
    const config = loadConfig(baseServiceConfigSchema, { SERVICE_PORT: "", OTEL_EXPORTER_OTLP_ENDPOINT: "" });
    expect(config.SERVICE_PORT).toBe(0);
    expect(config.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
  });

  it("lists every invalid or missing variable without echoing values", () => {
    const schema = baseServiceConfigSchema.extend({
      SERVICE_PORT: portSchema.default(50051),
      JWT_SECRET: z.string().min(32),
      LICENSE_KEY: z.string(),
    });
    let error: unknown;
    try {
      loadConfig(schema, {
        SERVICE_PORT: "http",
        LOG_LEVEL: "loud",
        DATABASE_URL: "not a url",
        JWT_SECRET: "short-secret-value",
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { issues, message } = error as ConfigError;
    expect(issues.map((i) => i.split(":")[0]).sort()).toEqual(
      ["DATABASE_URL", "JWT_SECRET", "LICENSE_KEY", "LOG_LEVEL", "SERVICE_PORT"].sort(),
    );
    expect(issues).toContain("LICENSE_KEY: required but not set");
    expect(message).toMatch(/^invalid configuration:\n {2}- /);
    expect(message).not.toContain("short-secret-value");
  });
});
