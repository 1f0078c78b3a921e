import { DiagLogLevel, context, diag, metrics, propagation, trace } from "@opentelemetry/api";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { NodeSDK } from "@opentelemetry/sdk-node";
import type { MetricReader } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { Logger } from "pino";
import type { Env } from "../config/load-config.js";
import { createLogger } from "../logging/logger.js";
import { diagToLogger } from "./diag-logger.js";
import { autoInstrumentations } from "./instrumentations.js";
import { createRateLimiter } from "./rate-limiter.js";
import { serviceResource } from "./service-resource.js";
import { loadTelemetryConfig } from "./telemetry-config.js";
import { otlpMetricReaders, signalUrl } from "./metric-readers.js";

export interface TelemetryOptions {
  serviceName: string;
  /** OTLP/HTTP (protobuf) base URL, e.g. http://otel-collector:4318; no export when unset. */
  otlpEndpoint?: string;
  /** "auto" patches http/undici/koa/pg (see instrumentations.ts); "none" for tests. */
  instrumentations?: "auto" | "none";
  /** Replaces the OTLP exporter (tests: SimpleSpanProcessor(InMemorySpanExporter)). */
  spanProcessors?: SpanProcessor[];
  /** Replaces the OTLP metric reader (tests: a reader they collect from). Empty: no meter provider. */
  metricReaders?: MetricReader[];
  /** SERVICE_VERSION, LOG_LEVEL, OTEL_LOG_LEVEL (telemetry-config.ts). Default: process.env. */
  env?: Env;
  /**
   * Where OpenTelemetry's warnings and errors go (rate-limited), and the warning of a cut
   * shutdown. Default: a logger of its own named serviceName at LOG_LEVEL (startTelemetry
   * runs before the service makes its logger), writing the same JSON lines to stdout.
   */
  logger?: Logger;
  /** The most shutdown() waits for the last spans to reach the collector. Default 2000 ms. */
  shutdownTimeoutMs?: number;
}

export interface Telemetry {
  /**
   * Flushes pending spans and unregisters the global providers. Never rejects: a collector
   * that is down or hangs costs at most shutdownTimeoutMs and a warning, not a failed
   * shutdown (the process's exit code is about the service, not its tracing).
   */
  shutdown(): Promise<void>;
}

/** Repeats of one diag message kind are logged at most this often. */
const DIAG_WINDOW_MS = 60_000;

/**
 * The one place that touches OTel's process-wide state: tracer provider,
 * AsyncLocalStorage context manager, W3C propagators, instrumentations.
 * Call it before koa/pg/knex are imported (see README), once per process.
 *
 * Without an endpoint a tracer provider is still registered (spans are made
 * and dropped): trace ids then still reach the logs and `traceparent` still
 * flows to the services this one calls. Metrics (metric-readers.ts) are only
 * recorded when exported.
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  const { serviceName, otlpEndpoint, instrumentations = "auto", env = process.env, shutdownTimeoutMs = 2_000 } = options;
  const config = loadTelemetryConfig(env);
  const logger = options.logger ?? createLogger({ name: serviceName, level: config.LOG_LEVEL });
  const spanProcessors = options.spanProcessors ?? [
    otlpEndpoint ? new BatchSpanProcessor(new OTLPTraceExporter({ url: signalUrl(otlpEndpoint, "traces") })) : new NoopSpanProcessor(),
  ];
  const metricReaders = options.metricReaders ?? otlpMetricReaders(otlpEndpoint, config, (message) => logger.warn(message));
  const sdk = new NodeSDK({
    resource: serviceResource({ serviceName, serviceVersion: config.SERVICE_VERSION }),
    spanProcessors,
    textMapPropagator: new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    }),
    instrumentations: instrumentations === "auto" ? autoInstrumentations({ runtimeMetrics: metricReaders.length > 0 }) : [],
    // Given explicitly (possibly empty): otherwise the SDK would start OTLP metric and
    // log exporters from OTEL_* defaults, pointing at localhost. Logs go to stdout (pino).
    metricReaders,
    logRecordProcessors: [],
  });
  // With OTEL_LOG_LEVEL set the SDK has put its console logger in place (debugging): leave it.
  if (config.OTEL_LOG_LEVEL === undefined) {
    diag.setLogger(diagToLogger(logger, createRateLimiter({ windowMs: DIAG_WINDOW_MS })), { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  }
  sdk.start();
  let stopped: Promise<void> | undefined;
  return {
    shutdown() {
      stopped ??= flushWithin(sdk.shutdown(), shutdownTimeoutMs, logger).finally(() => {
        trace.disable();
        metrics.disable();
        context.disable();
        propagation.disable();
        diag.disable();
      });
      return stopped;
    },
  };
}

/** Waits for the SDK's flush at most `timeoutMs`; a hung or failed export is a warning (spans lost), never a rejection. */
async function flushWithin(flushing: Promise<void>, timeoutMs: number, logger: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const cut = new Promise<"cut">((resolve) => {
    timer = setTimeout(() => resolve("cut"), timeoutMs);
    timer.unref();
  });
  try {
    const outcome = await Promise.race([flushing.then(() => "done" as const), cut]);
    if (outcome === "cut") logger.warn({ timeoutMs }, "telemetry shutdown cut short: the collector did not answer in time, the last spans and metrics are lost");
  } catch (err) {
    logger.warn({ err }, "telemetry shutdown failed: the last spans and metrics are lost");
  } finally {
    clearTimeout(timer);
  }
}
