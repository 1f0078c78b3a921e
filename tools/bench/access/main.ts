/**
 * Team visibility benchmark: `GET /api/v2/file` (page of 20, default sort, with
 * its count) through the gateway for a restricted user of one team, next to the
 * same list for an unrestricted OWNER, in a tenant of 100,000 files across 50
 * teams. Core + media on a fresh database (dropped at the end).
 * Run: npm run bench:access   (DATABASE_URL = admin connection, default postgres@127.0.0.1)
 */
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { ms, summarize, table } from "../query/stats.js";
import { createTeams, FILES, seedFiles, TEAMS } from "./seed.js";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const WARMUP = 30;
const TARGET = 1.5;
const log = (line: string) => process.stdout.write(`${line}\n`);

async function waitFor(what: string, probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function timeList(platform: TestPlatform, user: TenantUser, query: Record<string, string | number>): Promise<number> {
  const started = performance.now();
  const res = await platform.http.get("/api/v2/file", { token: user.token, query });
  const elapsed = performance.now() - started;
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${res.text}`);
  return elapsed;
}

async function main(): Promise<void> {
  const platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "bench_access", env: { MEDIA_VALIDITY_SWEEP_MS: "3600000" } });
  try {
    const http = platform.http;
    const admin = await http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const customer = await createCustomer(http, admin);
    const owner = await createUser(http, admin, customer.id, "OWNER");
    const restricted = await createUser(http, admin, customer.id, "VIEWER", { restricted: true });
    const teams = await createTeams(platform, owner.token);
    const assigned = await http.post("/api/user/updateTeamAssignments", { token: owner.token, query: { email: restricted.email }, body: { assignToTeams: [{ teamId: teams[0], readOnly: false }] } });
    if (assigned.status >= 300) throw new Error(`assign failed: ${assigned.status} ${assigned.text}`);
    const media = platform.knexOf("media");
    await waitFor("the customer's root folder", async () => !!(await media("file_folder").where({ customer_id: customer.id }).whereNull("parent_id").first()));
    const root = (await media("file_folder").where({ customer_id: customer.id }).whereNull("parent_id").first()).id as string;
    log(`# Team visibility benchmark: ${FILES.toLocaleString("en")} files across ${TEAMS} teams, restricted user in 1 team\n`);
    const started = Date.now();
    await seedFiles(media, customer.id, root, teams);
    log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await waitFor("the restricted user's memberships in media", async () => !!(await media("team_membership").where({ team_id: teams[0] }).first()));

    const scenarios: { label: string; query: Record<string, string | number> }[] = [
      { label: "default list (page 20, sort name, count)", query: {} },
      { label: "cheap count (size=1&select=id)", query: { size: 1, select: "id" } },
      { label: "name search (search=name:file-09)", query: { search: "name:file-09" } },
    ];
    const rows: string[][] = [];
    let worst = 0;
    for (const scenario of scenarios) {
      const seen = { owner: (await http.get("/api/v2/file", { token: owner.token, query: { ...scenario.query, size: 1 } })).body.totalElements, restricted: (await http.get("/api/v2/file", { token: restricted.token, query: { ...scenario.query, size: 1 } })).body.totalElements };
      for (let i = 0; i < WARMUP; i++) {
        await timeList(platform, owner, scenario.query);
        await timeList(platform, restricted, scenario.query);
      }
      const samples = { owner: [] as number[], restricted: [] as number[] };
      // Interleaved, so both sides see the same machine state.
      for (let i = 0; i < SAMPLES; i++) {
        samples.owner.push(await timeList(platform, owner, scenario.query));
        samples.restricted.push(await timeList(platform, restricted, scenario.query));
      }
      const o = summarize(samples.owner);
      const r = summarize(samples.restricted);
      const ratio = r.p95 / o.p95;
      worst = Math.max(worst, ratio);
      rows.push([scenario.label, `${seen.owner}`, ms(o.p50), ms(o.p95), `${seen.restricted}`, ms(r.p50), ms(r.p95), ratio.toFixed(2)]);
    }
    log("");
    log(table(["GET /api/v2/file", "OWNER total", "p50 ms", "p95 ms", "restricted total", "p50 ms", "p95 ms", "p95 ratio"], rows));
    log(`\n${SAMPLES} samples per side over HTTP (gateway -> media, in-memory transport). Target: restricted p95 <= ${TARGET}x unrestricted: ${worst <= TARGET ? "met" : "MISSED"} (worst ${worst.toFixed(2)}x)`);
    if (worst > TARGET) process.exitCode = 1;
  } finally {
    await platform.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
