// `npm run bench:gateway`: GET /api/v2/user/me through the gateway (REST ->
// RPC to core -> token check, role, scope, one user read), in both compositions:
// the cluster's (core in its own process, reached over loopback h2c) and the
// embedded one (`npm start`: core called in-process),
// next to a bare Koa handler doing the same token check, measured in one run.
// The ratio is the figure. Target: >= 60% of the bare throughput, p99 <= 3x.
// Two floors (hop-floor.ts) show the same hop with nothing of the platform on either side.
import { fork } from "node:child_process";
import Koa from "koa";
import { trace } from "@opentelemetry/api";
import { createTokenVerifier, generateSigningKeys } from "@signage/auth";
import { createTestDatabase } from "@signage/db";
import { createInProcessBus } from "@signage/events";
import { createInMemoryTransport, createLogger, createServiceTransport } from "@signage/platform";
import { startModule } from "@signage/runtime";
import { createGateway, upstreamsByPackage } from "@signage/gateway";
import { allFiles } from "@signage/contracts";
import { coreModule } from "@signage/core";
import { createCustomer, createHttpClient, createUser } from "@signage/testing";
import { load, loadInterleaved } from "./load.js";
import { cpuSeconds, postgresCpuSeconds } from "../support/process-cpu.js";
import { measureBreakdown, printBreakdown } from "./breakdown.js";
import { forAnyCaller, startHopFloor } from "./hop-floor.js";
import { captureSql } from "../support/capture-sql.js";
import { createClient } from "@connectrpc/connect";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";

const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
const USERS = Number(process.env.BENCH_USERS || 64);

function listen(app: Koa): Promise<{ url: string; close(): Promise<void> }> {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => new Promise((r) => server.close(() => r())) }),
    );
  });
}

const db = await createTestDatabase({ prefix: "bench_gw" });
const bus = createInProcessBus();
const signingKeys = generateSigningKeys();
const logger = createLogger({ name: "bench", level: "silent" });
const core = await startModule(coreModule, {
  databaseUrl: db.url,
  bus,
  keys: { signingKeys, publicKey: signingKeys.publicKey },
  tracer: trace.getTracer("bench"),
  logger,
  env: {},
});
await core.instance.start?.();
const everyService = (t: ReturnType<typeof createServiceTransport>) => upstreamsByPackage({ core: t, media: t, integration: t, reporting: t, licensing: t });
// Cluster shape: core in its own process (same database), the gateway reaching it
// over the network (Connect protocol, binary, h2c).
const coreProcess = fork(new URL("./core-process.ts", import.meta.url), [JSON.stringify({ databaseUrl: db.url, privateKeyPem: signingKeys.privateKeyPem })], {
  execArgv: ["--import", "tsx"],
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const coreUrl = await new Promise<string>((resolve, reject) => {
  coreProcess.once("message", (m: { url: string }) => resolve(m.url));
  coreProcess.once("exit", (code) => reject(new Error(`core process exited (${code}) before listening`)));
});
const gateway = await listen(createGateway({ files: allFiles, upstreams: everyService(createServiceTransport({ baseUrl: coreUrl, protocol: "connect" })), logger }).app);
// Embedded shape (`npm start`): the same gateway calling core in-process (createInMemoryTransport: direct, no serialization).
const embedded = await listen(createGateway({ files: allFiles, upstreams: everyService(createInMemoryTransport(core.service.routes, { interceptors: core.service.interceptors })), logger }).app);

// The baselines: a bare Koa handler doing the token check, without transcoding,
// RPC hop or database read. Services remember verified tokens until they expire
// (libs/auth verified-token cache), so the "same token check" is measured both
// ways: a signature verification on every request, and the services' cached verifier.
function bareApp(verifier: ReturnType<typeof createTokenVerifier>): Koa {
  const app = new Koa();
  app.use(async (ctx) => {
    const header = ctx.get("authorization");
    if (!header.startsWith("Bearer ")) {
      ctx.status = 401;
      return;
    }
    const caller = await verifier.verify(header.slice(7));
    ctx.body = { email: caller.subject, role: caller.role, customer: { id: caller.customerId } };
  });
  return app;
}
const bareServer = await listen(bareApp(createTokenVerifier({ publicKey: signingKeys.publicKey, cacheSize: 0 })));
const bareCachedServer = await listen(bareApp(createTokenVerifier({ publicKey: signingKeys.publicKey })));

const http = createHttpClient(gateway.url);
const token = await http.login("admin@example.com", "admin-change-me");
// Many callers, each request the next one's token: requests in flight are different users
// (the services coalesce concurrent reads, and one shared user would flatter that).
const customer = await createCustomer(http, token);
// In groups: core takes a bounded number of password hashes at once (AUTH_HASH_QUEUE), and refuses more.
const users: Awaited<ReturnType<typeof createUser>>[] = [];
while (users.length < USERS) users.push(...(await Promise.all(Array.from({ length: Math.min(16, USERS - users.length) }, () => createUser(http, token, customer.id, "VIEWER")))));
const headerSets = users.map((u) => ({ authorization: `Bearer ${u.token}` }));

// The hop floors (hop-floor.ts): the same hop with nothing of the platform on either side, checking
// the token only, and running getMe's statement (as core sent it for one caller) once per request.
const inProcessUsers = createClient(UserService, createInMemoryTransport(core.service.routes, { interceptors: core.service.interceptors }));
const me = await inProcessUsers.getMe({}, { headers: headerSets[0] });
const meStatements = await captureSql(core.db.knex, () => inProcessUsers.getMe({}, { headers: headerSets[0] }));
const floorOptions = { databaseUrl: db.url, schema: "core", publicKeyPem: signingKeys.publicKey.pem };
const hopFloor = await startHopFloor({ ...floorOptions, statements: [] });
const hopFloorSql = await startHopFloor({ ...floorOptions, statements: forAnyCaller(meStatements, me.user!.id!) });

// Warm every path (JIT, pools, HTTP/2 session) before measuring.
for (const base of [bareServer.url, bareCachedServer.url, gateway.url, embedded.url, hopFloor.url, hopFloorSql.url]) {
  await load(`${base}/api/v2/user/me`, headerSets, 2, CONNECTIONS);
}
// Alternating rounds: a change in machine speed during the run hits every path alike.
// CPU per request in each process: the bench process (bare servers, both gateways, the in-process
// core), the core process of the h2c path, and PostgreSQL.
// The floors' far ends idle outside their own rounds, so one counter serves both.
const cpu = {
  "bench process": () => cpuSeconds(process.pid),
  "core process": () => cpuSeconds(coreProcess.pid!),
  "floor far end": () => cpuSeconds(hopFloor.pid) + cpuSeconds(hopFloorSql.pid),
  postgres: postgresCpuSeconds,
};
const [baseline, baselineCached, viaGateway, viaEmbedded, viaHopFloor, viaHopFloorSql] = await loadInterleaved(
  [bareServer.url, bareCachedServer.url, gateway.url, embedded.url, hopFloor.url, hopFloorSql.url].map((base) => `${base}/api/v2/user/me`),
  headerSets,
  SECONDS,
  CONNECTIONS,
  ROUNDS,
  cpu,
);

const row = (name: string, r: typeof baseline) =>
  `${name.padEnd(40)} ${r.requestsPerSecond.toFixed(0).padStart(8)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   errors ${r.errors} non-2xx ${r.non2xx}`;
console.log(`GET /api/v2/user/me, ${CONNECTIONS} connections, ${USERS} users in turn, ${SECONDS} s each in ${ROUNDS} alternating rounds`);
console.log(row("bare Koa + signature check (baseline A)", baseline));
console.log(row("bare Koa + cached verifier (baseline B)", baselineCached));
console.log(row("gateway -> h2c -> core (own process)", viaGateway));
console.log(row("gateway -> in-memory -> core", viaEmbedded));
console.log(row("floor: bare Koa -> raw h2 -> token check", viaHopFloor));
console.log(row("floor: ... + getMe's SQL per request", viaHopFloorSql));
console.log("CPU per request (us), by process:");
for (const [name, r] of [
  ["baseline A", baseline],
  ["baseline B", baselineCached],
  ["gateway -> h2c -> core", viaGateway],
  ["gateway -> in-memory -> core", viaEmbedded],
  ["floor: hop, token check", viaHopFloor],
  ["floor: hop + getMe's SQL", viaHopFloorSql],
] as const) {
  console.log(`  ${name.padEnd(30)} ${Object.entries(r.cpuUsPerRequest).map(([p, us]) => `${p} ${us.toFixed(0)}`).join("   ")}`);
}
for (const [baseName, base] of [["A", baseline], ["B", baselineCached]] as const) {
  for (const [name, r, targets] of [["network hop", viaGateway, true], ["in-memory", viaEmbedded, true], ["floor hop", viaHopFloor, false], ["floor hop+SQL", viaHopFloorSql, false]] as const) {
    const throughput = r.requestsPerSecond / base.requestsPerSecond;
    const p99 = r.p99 / Math.max(base.p99, 1);
    const [throughputTarget, p99Target] = targets ? [" (target >= 60%)", " (target <= 3x)"] : ["", ""];
    console.log(`vs ${baseName}  ${name.padEnd(13)} throughput ${(throughput * 100).toFixed(1)}%${throughputTarget}   p99 ${p99.toFixed(2)}x${p99Target}`);
  }
}

printBreakdown(await measureBreakdown(core, token));

console.log(
  "\nFloors: a bare Koa app forwarding each request over one raw node:http2 session to a bare server in its own process (as core runs) that checks the token with the services' cached verifier, then also runs getMe's statement for the caller (prepared; once per request, where core coalesces the reads of one event-loop turn). The network hop's figure read against them: what the hop itself costs on this machine, and what the read adds.",
);

await hopFloor.close();
await hopFloorSql.close();
await gateway.close();
await embedded.close();
await bareServer.close();
await bareCachedServer.close();
coreProcess.disconnect();
await new Promise((r) => (coreProcess.exitCode !== null ? r(null) : coreProcess.once("exit", r)));
await core.stop();
await bus.close();
await db.drop();
