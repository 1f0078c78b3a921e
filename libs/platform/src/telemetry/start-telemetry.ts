import { context, propagation, trace } from "@opentelemetry/api";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { autoInstrumentations } from "./instrumentations.js";

export interface TelemetryOptions {
  serviceName: string;
  /** OTLP/HTTP (protobuf) base URL, e.g. http://otel-collector:4318; no export when unset. */
  otlpEndpoint?: string;
  /** "auto" patches http/undici/koa/pg (see instrumentations.ts); "none" for tests. */
  instrumentations?: "auto" | "none";
  /** Replaces the OTLP exporter (tests: SimpleSpanProcessor(InMemorySpanExporter)). */
  spanProcessors?: SpanProcessor[];
}

export interface Telemetry {
  /** Flushes pending spans and unregisters the global providers. */
  shutdown(): Promise<void>;
}

/**
 * The one place that touches OTel's process-wide state: tracer provider,
 * AsyncLocalStorage context manager, W3C propagators, instrumentations.
 * Call it before koa/pg/knex are imported (see README), once per process.
 *
 * Without an endpoint a tracer provider is still registered (spans are made
 * and dropped): trace ids then still reach the logs and `traceparent` still
 * flows to the services this one calls.
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  const { serviceName, otlpEndpoint, instrumentations = "auto" } = options;
  const spanProcessors = options.spanProcessors ?? [
    otlpEndpoint ? new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl(otlpEndpoint) })) : new NoopSpanProcessor(),
  ];
  const sdk = new NodeSDK({
    serviceName,
    spanProcessors,
    textMapPropagator: new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    }),
    instrumentations: instrumentations === "auto" ? autoInstrumentations() : [],
    // Traces only: without these the SDK would also start OTLP metric and
    // log exporters from OTEL_* defaults, pointing at localhost.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  let stopped: Promise<void> | undefined;
  return {
    shutdown() {
      stopped ??= sdk.shutdown().finally(() => {
        trace.disable();
        context.disable();
        propagation.disable();
      });
      return stopped;
    },
  };
}

/** OTEL_EXPORTER_OTLP_ENDPOINT is a base URL; the traces signal lives under /v1/traces. */
function tracesUrl(endpoint: string): string {
  return new URL("v1/traces", endpoint.endsWith("/") ? endpoint : `${endpoint}/`).toString();
}
