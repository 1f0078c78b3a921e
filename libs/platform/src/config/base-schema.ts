import { z } from "zod";

/** A TCP port from an env var; 0 means "pick a free one" (tests, embedded mode). */
export const portSchema = z.coerce.number().int().min(0).max(65535);

export const logLevelSchema = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

/**
 * Env vars every service reads. Services extend it, e.g.
 * `baseServiceConfigSchema.extend({ SERVICE_PORT: portSchema.default(50051), JWT_SECRET: z.string() })`.
 */
export const baseServiceConfigSchema = z.object({
  SERVICE_HOST: z.string().min(1).default("127.0.0.1"),
  SERVICE_PORT: portSchema.default(0),
  LOG_LEVEL: logLevelSchema.default("info"),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  DATABASE_URL: z.url().optional(),
  // May be a comma-separated server list, so not validated as a single URL.
  NATS_URL: z.string().min(1).optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  // Connections are closed (GOAWAY, calls in flight finish) after about this long, so callers
  // reconnect and spread over the replicas a Service added since; 0 keeps them forever.
  MAX_CONNECTION_AGE_MS: z.coerce.number().int().min(0).default(300_000),
});

export type BaseServiceConfig = z.output<typeof baseServiceConfigSchema>;
