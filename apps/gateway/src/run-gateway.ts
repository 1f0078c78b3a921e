// The gateway process: configuration, upstream transports, HTTP server,
// graceful shutdown. Telemetry is started by main.ts before this loads.
import { trace } from "@opentelemetry/api";
import { z } from "zod";
import { allFiles } from "@signage/contracts";
import type { Server } from "node:http";
import { clientTracingInterceptor, createLogger, createServiceTransport, installGracefulShutdown, loadConfig, logLevelSchema, type GracefulShutdown, type Telemetry } from "@signage/platform";
import { createGateway } from "./gateway.js";
import { parseCorsOrigins } from "./http/cors.js";
import { trustedProxiesFrom } from "./http/client-address.js";
import { applyServerTimeouts, serverTimeoutsEnvSchema } from "./server-timeouts.js";
import { answerClientErrors } from "./http/client-errors.js";
import { upstreamsByPackage } from "./upstreams.js";

export interface RunningGateway {
  server: Server;
  shutdown: GracefulShutdown;
}

export function runGateway(env: Record<string, string | undefined>, telemetry: Telemetry): RunningGateway {
  const config = loadConfig(
    z.object({
      GATEWAY_HOST: z.string().default("127.0.0.1"),
      GATEWAY_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
      GATEWAY_CORS_ORIGINS: z.string().default(""),
      LOG_LEVEL: logLevelSchema.default("info"),
      OTEL_EXPORTER_OTLP_ENDPOINT: z.string().optional(),
      CORE_URL: z.string().url(),
      MEDIA_URL: z.string().url(),
      INTEGRATION_URL: z.string().url(),
      REPORTING_URL: z.string().url(),
      LICENSING_URL: z.string().url(),
    }),
    env,
  );
  const timeouts = loadConfig(serverTimeoutsEnvSchema, env);
  const logger = createLogger({ name: "gateway", level: config.LOG_LEVEL });
  const interceptors = [clientTracingInterceptor(trace.getTracer("signage-gateway"))];
  // Connect protocol (binary) over h2c: same contract as gRPC, measurably cheaper per unary call (tools/bench/gateway).
  const transport = (baseUrl: string) => createServiceTransport({ baseUrl, protocol: "connect", interceptors });
  const upstreams = upstreamsByPackage({
    core: transport(config.CORE_URL),
    media: transport(config.MEDIA_URL),
    integration: transport(config.INTEGRATION_URL),
    reporting: transport(config.REPORTING_URL),
    licensing: transport(config.LICENSING_URL),
  });
  const { app } = createGateway({ files: allFiles, upstreams, logger, corsOrigins: parseCorsOrigins(config.GATEWAY_CORS_ORIGINS), trustedProxies: trustedProxiesFrom(env) });
  const server = app.listen(config.GATEWAY_PORT, config.GATEWAY_HOST, () => {
    logger.info({ url: `http://${config.GATEWAY_HOST}:${config.GATEWAY_PORT}`, timeouts }, "gateway listening");
  });
  // Set in the same turn as listen(): no connection is accepted before.
  applyServerTimeouts(server, timeouts);
  answerClientErrors(server);
  const shutdown = installGracefulShutdown({
    logger,
    timeoutMs: 10_000,
    steps: [
      { name: "http", run: () => new Promise<void>((ok) => server.close(() => ok())) },
      { name: "telemetry", run: () => telemetry.shutdown() },
    ],
  });
  return { server, shutdown };
}
