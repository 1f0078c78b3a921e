import { getNodeAutoInstrumentations, type InstrumentationConfigMap } from "@opentelemetry/auto-instrumentations-node";
import type { Instrumentation } from "@opentelemetry/instrumentation";

type InstrumentationName = keyof InstrumentationConfigMap;

/**
 * Every auto-instrumentation, on or off. A Record over all names so that an
 * upgrade adding one fails the typecheck instead of silently enabling it.
 * On: what this codebase uses (HTTP/Koa for the gateway, fetch, pg under knex).
 * Off: fs/dns/net (a span per syscall), pino (our mixin already adds trace
 * ids), knex (duplicates the pg spans), grpc (we speak gRPC through Connect,
 * traced by our interceptors), and libraries we don't use.
 */
const enabled: Record<InstrumentationName, boolean> = {
  "@opentelemetry/instrumentation-http": true,
  "@opentelemetry/instrumentation-undici": true,
  "@opentelemetry/instrumentation-koa": true,
  "@opentelemetry/instrumentation-pg": true,
  "@opentelemetry/instrumentation-amqplib": false,
  "@opentelemetry/instrumentation-aws-lambda": false,
  "@opentelemetry/instrumentation-aws-sdk": false,
  "@opentelemetry/instrumentation-bunyan": false,
  "@opentelemetry/instrumentation-cassandra-driver": false,
  "@opentelemetry/instrumentation-connect": false,
  "@opentelemetry/instrumentation-cucumber": false,
  "@opentelemetry/instrumentation-dataloader": false,
  "@opentelemetry/instrumentation-dns": false,
  "@opentelemetry/instrumentation-express": false,
  "@opentelemetry/instrumentation-fs": false,
  "@opentelemetry/instrumentation-generic-pool": false,
  "@opentelemetry/instrumentation-graphql": false,
  "@opentelemetry/instrumentation-grpc": false,
  "@opentelemetry/instrumentation-hapi": false,
  "@opentelemetry/instrumentation-host-metrics": false,
  "@opentelemetry/instrumentation-ioredis": false,
  "@opentelemetry/instrumentation-kafkajs": false,
  "@opentelemetry/instrumentation-knex": false,
  "@opentelemetry/instrumentation-lru-memoizer": false,
  "@opentelemetry/instrumentation-memcached": false,
  "@opentelemetry/instrumentation-mongodb": false,
  "@opentelemetry/instrumentation-mongoose": false,
  "@opentelemetry/instrumentation-mysql2": false,
  "@opentelemetry/instrumentation-mysql": false,
  "@opentelemetry/instrumentation-nestjs-core": false,
  "@opentelemetry/instrumentation-net": false,
  "@opentelemetry/instrumentation-openai": false,
  "@opentelemetry/instrumentation-oracledb": false,
  "@opentelemetry/instrumentation-pino": false,
  "@opentelemetry/instrumentation-redis": false,
  "@opentelemetry/instrumentation-restify": false,
  "@opentelemetry/instrumentation-router": false,
  "@opentelemetry/instrumentation-runtime-node": false,
  "@opentelemetry/instrumentation-socket.io": false,
  "@opentelemetry/instrumentation-tedious": false,
  "@opentelemetry/instrumentation-winston": false,
};

export function autoInstrumentations(): Instrumentation[] {
  const config: InstrumentationConfigMap = {};
  for (const [name, on] of Object.entries(enabled) as Array<[InstrumentationName, boolean]>) {
    config[name] = { enabled: on };
  }
  // Health probes every few seconds would drown real traffic in traces.
  config["@opentelemetry/instrumentation-http"] = {
    enabled: true,
    ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|livez)\b/.test(req.url ?? ""),
  };
  // The pg spans still need a parent: don't start traces from pool housekeeping.
  config["@opentelemetry/instrumentation-pg"] = { enabled: true, requireParentSpan: true };
  return getNodeAutoInstrumentations(config);
}
