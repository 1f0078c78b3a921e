// Where a GET /api/v2/user/me spends its time inside one process, measured in
// the same run as the throughput figures: each layer's cost per call (wall and
// CPU, sequential calls), from the bare database statement up to the full RPC.
import { createClient, type Interceptor } from "@connectrpc/connect";
import type { Knex } from "knex";
import { authContextKey, type AuthContext } from "@signage/auth";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { createInMemoryTransport } from "@signage/platform";
import type { RunningModule } from "@signage/runtime";
import { captureSql } from "../support/capture-sql.js";

const CALLS = Number(process.env.BENCH_BREAKDOWN_CALLS || 2000);

interface Cost {
  name: string;
  wallUs: number;
  cpuUs: number;
}

async function cost(name: string, call: () => Promise<unknown>): Promise<Cost> {
  for (let i = 0; i < CALLS / 10; i++) await call();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await call();
  const cpu = process.cpuUsage(cpu0);
  return { name, wallUs: ((performance.now() - t0) * 1000) / CALLS, cpuUs: (cpu.user + cpu.system) / CALLS };
}

export async function measureBreakdown(core: RunningModule, token: string): Promise<Cost[]> {
  const headers = { authorization: `Bearer ${token}` };
  const knex = core.db.knex;
  const full = createClient(UserService, createInMemoryTransport(core.service.routes, { interceptors: core.service.interceptors }));
  // connect's router transport: the same call serialized as on the wire, no sockets.
  const wire = createClient(UserService, createInMemoryTransport(core.service.routes, { interceptors: core.service.interceptors, mode: "wire" }));
  const me = await full.getMe({}, { headers });
  // The same handler behind an interceptor that only hands it the caller (no token, role or tenant check).
  const user = me.user!;
  const auth: AuthContext = {
    caller: { kind: "user", subject: user.email!, userId: user.id!, customerId: Number(user.customer!.id), role: user.role!, networkOwner: false, twoFactor: false, token },
    scope: { kind: "global" },
  };
  const handAuth: Interceptor = (next) => (req) => {
    req.contextValues.set(authContextKey, auth);
    return next(req);
  };
  const bare = createClient(UserService, createInMemoryTransport(core.service.routes, { interceptors: [handAuth] }));
  // Prime the access cache and pools, then capture what one call reads (the access check is cached: one statement).
  await full.getMe({}, { headers });
  const statements = await captureSql(knex, () => full.getMe({}, { headers }));
  return [
    await cost("pg round trip (knex.raw 'select 1')", () => knex.raw("select 1")),
    await cost(`getMe's SQL replayed (${statements.length} stmt)`, async () => {
      for (const s of statements) await knex.raw(s.sql.replace(/\$\d+/g, "?"), s.bindings as readonly Knex.RawBinding[]);
    }),
    await cost("getMe direct in-process, caller handed in", () => bare.getMe({})),
    await cost("getMe direct in-process, full interceptors", () => full.getMe({}, { headers })),
    await cost("getMe serialized (router transport), full", () => wire.getMe({}, { headers })),
  ];
}

export function printBreakdown(costs: Cost[]): void {
  console.log(`\nInside one process, sequential calls (${CALLS} each): per call`);
  for (const c of costs) console.log(`  ${c.name.padEnd(52)} wall ${c.wallUs.toFixed(0).padStart(5)} us   cpu ${c.cpuUs.toFixed(0).padStart(5)} us`);
}
