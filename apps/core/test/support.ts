// Core running on a fresh test database, reached over an in-memory Connect
// transport through the real interceptors (tracing, auth).
import { trace } from "@opentelemetry/api";
import { createClient, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import type { DescService } from "@bufbuild/protobuf";
import { generateSigningKeys } from "@signage/auth";
import { createTestDatabase } from "@signage/db";
import { createInProcessBus, type EventEnvelope } from "@signage/events";
import { createInMemoryTransport, createLogger } from "@signage/platform";
import { startModule } from "@signage/runtime";
import { AuthService } from "@signage/contracts/signage/core/v1/auth_pb";
import { coreModule } from "../src/module.js";

export const ADMIN = { email: "admin@example.com", password: "admin-change-me" };

export async function startCore() {
  const testDb = await createTestDatabase({ prefix: "core_test" });
  const bus = createInProcessBus();
  const events: EventEnvelope[] = [];
  await bus.subscribe({ consumer: "test.recorder", types: ["customer.*"], handler: async (e) => void events.push(e) });
  const signingKeys = generateSigningKeys();
  const running = await startModule(coreModule, {
    databaseUrl: testDb.url,
    bus,
    keys: { signingKeys, publicKey: signingKeys.publicKey },
    tracer: trace.getTracer("core-test"),
    logger: createLogger({ name: "core-test", level: "silent" }),
    env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
  });
  await running.instance.start?.();
  const transport: Transport = createInMemoryTransport(running.service.routes, { interceptors: running.service.interceptors });
  const auth = createClient(AuthService, transport);

  async function login(username: string, password: string, totp?: string) {
    const res = await auth.issueToken({ grantType: "password", username, password, totp });
    return res.accessToken;
  }

  function as<S extends DescService>(service: S, token: string, headers: Record<string, string> = {}): Client<S> {
    const withToken: Interceptor = (next) => (req) => {
      req.header.set("authorization", `Bearer ${token}`);
      for (const [k, v] of Object.entries(headers)) req.header.set(k, v);
      return next(req);
    };
    return createClient(service, createInMemoryTransport(running.service.routes, { interceptors: running.service.interceptors, clientInterceptors: [withToken] }));
  }

  /** Waits until the in-process bus delivered an event of this type for this customer. */
  async function eventOf(type: string, customerId: number) {
    for (let i = 0; i < 100; i++) {
      const hit = events.find((e) => e.type === type && e.customerId === customerId);
      if (hit) return hit;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no ${type} event for customer ${customerId}`);
  }

  return {
    knex: running.db.knex,
    auth,
    login,
    as,
    eventOf,
    async close() {
      await running.stop();
      await bus.close();
      await testDb.drop();
    },
  };
}

export type CoreHarness = Awaited<ReturnType<typeof startCore>>;
