// One service as its own process (cluster composition and Kubernetes):
// PostgreSQL and NATS JetStream from the environment, gRPC/Connect on one port,
// graceful shutdown on SIGTERM (drain, then module, bus and telemetry).
import { trace } from "@opentelemetry/api";
import { createJetStreamBus, type JetStreamBusOptions } from "@signage/events";
import { clientTracingInterceptor, createLogger, installGracefulShutdown, loadConfig, startTelemetry, type Telemetry } from "@signage/platform";
import { peersFromEnv } from "./peers/peers.js";
import { serviceProcessConfigSchema, type ServiceProcessConfig } from "./config.js";
import { loadProcessKeys } from "./keys.js";
import { startModule } from "./start-module.js";
import type { ServiceModule } from "./service-module.js";

export interface StandaloneOptions {
  /**
   * Telemetry the entry point started before importing anything instrumented
   * (http, koa, pg are patched only if the SDK runs before they load); started
   * here otherwise.
   */
  telemetry?: Telemetry;
}

/** The event bus a service process connects to, from its configuration. */
export function busOptionsOf(config: ServiceProcessConfig): JetStreamBusOptions {
  return {
    servers: config.NATS_URL,
    streamName: config.NATS_STREAM,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
    replicas: config.NATS_STREAM_REPLICAS,
  };
}

export async function runStandalone(module: ServiceModule, env: Record<string, string | undefined> = process.env, options: StandaloneOptions = {}): Promise<void> {
  const config = loadConfig(serviceProcessConfigSchema, env);
  const telemetry = options.telemetry ?? startTelemetry({ serviceName: module.name, otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
  const logger = createLogger({ name: module.name, level: config.LOG_LEVEL });
  const bus = await createJetStreamBus({ ...busOptionsOf(config), logger, name: module.name });
  const tracer = trace.getTracer(`signage-${module.name}`);
  const running = await startModule(module, {
    databaseUrl: config.DATABASE_URL,
    bus,
    keys: await loadProcessKeys(env, config.DATA_DIR),
    tracer,
    logger,
    env,
    peers: peersFromEnv(env, [clientTracingInterceptor(tracer)]),
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    maxConnectionAgeMs: config.MAX_CONNECTION_AGE_MS,
  });
  // Start (subscriptions, bootstrap data such as core's admin) before listening, so a
  // healthy port means a ready service: callers never race the bootstrap.
  await running.instance.start?.();
  const listening = await running.service.listen({ host: config.SERVICE_HOST, port: config.SERVICE_PORT });
  logger.info({ url: listening.url }, `${module.name} listening`);
  installGracefulShutdown({
    logger,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS + 5_000,
    steps: [
      // The server drain may use the whole SHUTDOWN_TIMEOUT_MS; leave room to close the database after it.
      { name: "module", run: () => running.stop(), timeoutMs: config.SHUTDOWN_TIMEOUT_MS + 2_000 },
      { name: "bus", run: () => bus.close() },
      { name: "telemetry", run: () => telemetry.shutdown() },
    ],
  });
}
