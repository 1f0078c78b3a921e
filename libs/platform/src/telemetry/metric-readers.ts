import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { PeriodicExportingMetricReader, type MetricReader } from "@opentelemetry/sdk-metrics";
import type { TelemetryConfig } from "./telemetry-config.js";

/** Exporters OTEL_METRICS_EXPORTER may name: only `otlp` is built in; `none` means none. */
const KNOWN_EXPORTERS = new Set(["otlp", "none"]);

/**
 * Metrics go where the traces go: OTLP/HTTP (protobuf) to `<endpoint>/v1/metrics`, every
 * OTEL_METRIC_EXPORT_INTERVAL. None without an endpoint, or when OTEL_METRICS_EXPORTER does not
 * name `otlp` (`none`): then no meter provider is registered and every instrument is a no-op.
 * Other exporter names (console, prometheus) are not built in: `warn` says so.
 */
export function otlpMetricReaders(
  otlpEndpoint: string | undefined,
  config: Pick<TelemetryConfig, "OTEL_METRICS_EXPORTER" | "OTEL_METRIC_EXPORT_INTERVAL">,
  warn: (message: string) => void = () => undefined,
): MetricReader[] {
  const unknown = config.OTEL_METRICS_EXPORTER.filter((name) => !KNOWN_EXPORTERS.has(name));
  if (unknown.length > 0) warn(`OTEL_METRICS_EXPORTER: ${unknown.join(", ")} not available here (only otlp); ignored`);
  if (!otlpEndpoint || !config.OTEL_METRICS_EXPORTER.includes("otlp") || config.OTEL_METRICS_EXPORTER.includes("none")) return [];
  const interval = config.OTEL_METRIC_EXPORT_INTERVAL;
  return [
    new PeriodicExportingMetricReader({
      exporter: new OTLPMetricExporter({ url: signalUrl(otlpEndpoint, "metrics") }),
      exportIntervalMillis: interval,
      // An export may take at most the interval (the SDK refuses a longer timeout), 30 s by default.
      exportTimeoutMillis: Math.min(30_000, interval),
    }),
  ];
}

/** OTEL_EXPORTER_OTLP_ENDPOINT is a base URL; each signal lives under /v1/<signal>. */
export function signalUrl(endpoint: string, signal: "traces" | "metrics"): string {
  return new URL(`v1/${signal}`, endpoint.endsWith("/") ? endpoint : `${endpoint}/`).toString();
}
