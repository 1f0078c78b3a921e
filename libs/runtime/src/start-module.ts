// Brings one service module up on shared infrastructure: its own schema
// (migrated), its handlers behind the tracing and auth interceptors, and the
// health service. The caller decides how it is reached (port or in memory).
import type { Tracer } from "@opentelemetry/api";
import { captchaFromEnv, createAuthInterceptor, createTenantAccessCache, createTokenVerifier, tenantAccessCacheMs } from "@signage/auth";
import { createDatabase, newId, type Database } from "@signage/db";
import { createOutbox, createOutboxTable, type EventBus } from "@signage/events";
import { createService, serverTracingInterceptor, type Logger, type Service } from "@signage/platform";
import type { ProcessKeys } from "./keys.js";
import { createPeers, type Peers } from "./peers/peers.js";
import { databaseErrorsInterceptor } from "./errors/database-errors-interceptor.js";
import { listQueryErrorInterceptor } from "./list/list-error-interceptor.js";
import { scheduleInboxPrune } from "./inbox-prune.js";
import type { ModuleInstance, ServiceModule } from "./service-module.js";

export interface SharedInfra {
  databaseUrl: string;
  bus: EventBus;
  keys: ProcessKeys;
  tracer: Tracer;
  logger: Logger;
  env: Record<string, string | undefined>;
  shutdownTimeoutMs?: number;
  /** HTTP/2 connections are sent GOAWAY after about this long (0 or unset: never). */
  maxConnectionAgeMs?: number;
  /** Other services; default: none reachable (a peer call fails with a clear error). */
  peers?: Peers;
}

export interface RunningModule {
  name: string;
  service: Service;
  instance: ModuleInstance;
  db: Database;
  /** Stops the module's own work, then its database (the bus is shared: closed by the owner). */
  stop(): Promise<void>;
}

export async function startModule(module: ServiceModule, infra: SharedInfra): Promise<RunningModule> {
  const logger = moduleLogger(infra.logger, module.name);
  const db = await createDatabase({ url: infra.databaseUrl, schema: module.name, migrationsDir: module.migrationsDir, logger, env: infra.env });
  await db.migrate();
  // Infrastructure table like knex's own migration table: every service schema has one.
  await createOutboxTable(db.knex);
  const outbox = createOutbox({ knex: db.knex, bus: infra.bus, logger, service: module.name });
  const tenantAccess = createTenantAccessCache({ ttlMs: tenantAccessCacheMs(infra.env) });
  const instance = await module.create({
    knex: db.knex,
    bus: infra.bus,
    outbox,
    logger,
    newId,
    publicKey: infra.keys.publicKey,
    signingKeys: infra.keys.signingKeys,
    env: infra.env,
    peers: infra.peers ?? createPeers(() => undefined),
    tenantAccess,
  });
  const verifier = createTokenVerifier({ publicKey: infra.keys.publicKey });
  const service = createService({
    name: module.name,
    logger,
    register: instance.register,
    interceptors: [
      serverTracingInterceptor(infra.tracer),
      createAuthInterceptor({
        verifier,
        directory: tenantAccess.wrap(instance.directory),
        totp: instance.totp,
        currentUser: instance.currentUser,
        captcha: instance.captcha ?? captchaFromEnv(infra.env),
      }),
    ],
    errorMappers: [listQueryErrorInterceptor, databaseErrorsInterceptor],
    shutdownTimeoutMs: infra.shutdownTimeoutMs,
    maxConnectionAgeMs: infra.maxConnectionAgeMs,
  });
  outbox.start();
  const inboxPrune = await scheduleInboxPrune(db.knex, infra.env, logger);
  return {
    name: module.name,
    service,
    instance,
    db,
    async stop() {
      await service.close();
      await instance.stop?.();
      await inboxPrune?.stop();
      await outbox.stop();
      await db.close();
    },
  };
}

/**
 * A service process's logger already says `"service":"<name>"` (its base), and pino
 * never replaces a parent's field: a child would write it again
 * (`"service":"core",…,"service":"core"`). So the process's own module logs through
 * it as is; a module hosted by a process named otherwise (`npm start`'s "signage",
 * tests) is told apart by `"module":"<name>"`.
 */
function moduleLogger(logger: Logger, module: string): Logger {
  return logger.bindings().service === module ? logger : logger.child({ module });
}
