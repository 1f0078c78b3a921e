// The platform for HTTP-level tests: the given service modules on a fresh test
// database, a real bus (in-process, or JetStream on its own stream), in-memory
// transports between services, and the real gateway listening on port 0.
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { trace } from "@opentelemetry/api";
import { createRouterTransport } from "@connectrpc/connect";
import { generateSigningKeys } from "@signage/auth";
import { allFiles } from "@signage/contracts";
import { createTestDatabase } from "@signage/db";
import { createInProcessBus, createJetStreamBus, type EventBus } from "@signage/events";
import { answerClientErrors, createGateway, trustedProxiesFrom, upstreamsByPackage } from "@signage/gateway";
import { createInMemoryTransport, createLogger } from "@signage/platform";
import { createLatePeers, startModule, type RunningModule, type ServiceModule, type ServiceName } from "@signage/runtime";
import type { Knex } from "knex";
import { createHttpClient, type HttpClient } from "./http-client.js";

const ALL_SERVICES: readonly ServiceName[] = ["core", "media", "integration", "reporting", "licensing"];

export const TEST_ADMIN = { email: "admin@example.com", password: "admin-change-me" };

export interface PlatformOptions {
  /** Core must be among them (it signs tokens and bootstraps the admin). */
  modules: ServiceModule[];
  /** `inprocess` (default) or `jetstream` (NATS_URL, default nats://127.0.0.1:4222, on a stream of its own). */
  bus?: "inprocess" | "jetstream";
  /** Extra environment for the modules (e.g. STORAGE_URL). */
  env?: Record<string, string | undefined>;
  /** Test database name prefix. */
  prefix?: string;
  logLevel?: "silent" | "info" | "debug";
}

export interface TestPlatform {
  url: string;
  http: HttpClient;
  bus: EventBus;
  running: RunningModule[];
  knexOf(service: ServiceName): Knex;
  close(): Promise<void>;
}

export async function startPlatform(options: PlatformOptions): Promise<TestPlatform> {
  const testDb = await createTestDatabase({ prefix: options.prefix ?? "platform_test" });
  const logger = createLogger({ name: "platform-test", level: options.logLevel ?? "silent" });
  const bus = await createBus(options.bus ?? "inprocess");
  const signingKeys = generateSigningKeys();
  const tracer = trace.getTracer("platform-test");
  const env = { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password, ...options.env };
  const late = createLatePeers();
  const running: RunningModule[] = [];
  try {
    for (const module of options.modules) {
      running.push(await startModule(module, { databaseUrl: testDb.url, bus, keys: { signingKeys, publicKey: signingKeys.publicKey }, tracer, logger, env, peers: late.peers }));
    }
    const transports = Object.fromEntries(running.map((m) => [m.name, createInMemoryTransport(m.service.routes, { interceptors: m.service.interceptors })]));
    late.bind(transports);
    for (const m of running) await m.instance.start?.();
    // Services left out of this platform answer every call as unimplemented (501 at the edge).
    const absent = createRouterTransport(() => undefined);
    const upstreams = upstreamsByPackage({ ...Object.fromEntries(ALL_SERVICES.map((name) => [name, absent])), ...transports });
    const gateway = createGateway({ files: allFiles, upstreams, logger, trustedProxies: trustedProxiesFrom(env) });
    const server = gateway.app.listen(0, "127.0.0.1");
    answerClientErrors(server);
    await new Promise<void>((ok, fail) => server.once("listening", ok).once("error", fail));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      url,
      http: createHttpClient(url),
      bus,
      running,
      knexOf(service) {
        const found = running.find((m) => m.name === service);
        if (!found) throw new Error(`service ${service} is not part of this test platform`);
        return found.db.knex;
      },
      async close() {
        server.closeAllConnections();
        await new Promise<void>((ok) => server.close(() => ok()));
        for (const m of [...running].reverse()) await m.stop();
        await bus.close();
        await testDb.drop();
      },
    };
  } catch (error) {
    for (const m of running.reverse()) await m.stop().catch(() => undefined);
    await bus.close();
    await testDb.drop();
    throw error;
  }
}

async function createBus(kind: "inprocess" | "jetstream"): Promise<EventBus> {
  if (kind === "inprocess") return createInProcessBus();
  const stream = `TEST_${randomUUID().replaceAll("-", "").slice(0, 12).toUpperCase()}`;
  return createJetStreamBus({ servers: process.env.NATS_URL ?? "nats://127.0.0.1:4222", streamName: stream, subjectPrefix: stream.toLowerCase(), nakDelayMs: 50, deleteStreamOnClose: true });
}
