import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { PeriodicExportingMetricReader, type MetricReader } from "@opentelemetry/sdk-metrics";
import type { TelemetryConfig } from "./telemetry-config.js";

/**
 * Metrics go where the traces go: OTLP/HTTP (protobuf) to `<endpoint>/v1/metrics`, every
 * OTEL_METRIC_EXPORT_INTERVAL. None without an endpoint, or with OTEL_METRICS_EXPORTER=none:
 * then no meter provider is registered and every instrument is a no-op.
 */
export function otlpMetricReaders(otlpEndpoint: string | undefined, config: Pick<TelemetryConfig, "OTEL_METRICS_EXPORTER" | "OTEL_METRIC_EXPORT_INTERVAL">): MetricReader[] {
  if (!otlpEndpoint || config.OTEL_METRICS_EXPORTER === "none") return [];
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
