import { z } from "zod";
import { logLevelSchema } from "../config/base-schema.js";
import { loadConfig, type Env } from "../config/load-config.js";

/**
 * What startTelemetry reads from the environment itself. OTEL_SERVICE_NAME and
 * OTEL_RESOURCE_ATTRIBUTES are read by the SDK's env resource detector (standard
 * semantics, see service-resource.ts); OTEL_LOG_LEVEL by the SDK as well.
 */
export const telemetryConfigSchema = z.object({
  /** `service.version` of every span: the release or image tag. */
  SERVICE_VERSION: z
    .string()
    .regex(/^[A-Za-z0-9_.+-]{1,128}$/, "a release or image tag: letters, digits and . _ + - only, at most 128 characters")
    .optional(),
  /** Level of the logger telemetry writes its warnings to, when none is given. */
  LOG_LEVEL: logLevelSchema.default("info"),
  /** Set: the SDK logs its own diagnostics to the console at that level (debugging), instead of ours to the logger. */
  OTEL_LOG_LEVEL: z.string().optional(),
  /**
   * Standard OTel name: a comma list of exporters, case-insensitive. Metrics go out over OTLP
   * when it names `otlp` (the default); `none` (or a list without `otlp`) keeps the traces only.
   */
  OTEL_METRICS_EXPORTER: z
    .string()
    .default("otlp")
    .transform((value) => value.split(",").map((name) => name.trim().toLowerCase()).filter(Boolean)),
  /** Milliseconds between two metric exports (standard OTel name and default). */
  OTEL_METRIC_EXPORT_INTERVAL: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
});

export type TelemetryConfig = z.output<typeof telemetryConfigSchema>;

export function loadTelemetryConfig(env: Env): TelemetryConfig {
  return loadConfig(telemetryConfigSchema, env);
}
