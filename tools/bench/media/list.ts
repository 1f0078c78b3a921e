/**
 * `GET /api/v2/file` latency on one tenant holding 100,000 files, through the real gateway
 * (HTTP from a client in its own process, auth, listRpc, projection), next to the very SQL
 * the service ran for that request (captured from media's Knex, replayed on a raw pg
 * connection). Target: gateway p95 <= 1.5x the direct p95 of the list's own statements (page
 * and count); the direct p95 of every statement media ran for the request (tenant check,
 * filtered-folder check, team access when not cached) is shown next to it, and so are two floors:
 * a bare HTTP server running the list SQL (support/bare-sql-server.ts), and the same work behind
 * a Koa app with one @koa/router route (support/koa-sql-server.ts), what the gateway's own stack
 * costs before any of its middleware, auth or RPC. Gateway, direct and floor samples alternate,
 * so a loaded machine slows all alike. Seeded files carry blob keys like uploaded ones (the list
 * signs a download URL per row). Seeds its own test database (startPlatform) and drops it.
 * Called by tools/bench/media/main.ts; run alone with
 *   node --import tsx -e 'import("./tools/bench/media/list.ts").then((m) => m.benchFileList())'
 */
import { performance } from "node:perf_hooks";
import type { Knex } from "knex";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { captureSql, type Statement } from "../support/capture-sql.js";
import { createRemoteGet } from "../support/remote-get.js";
import { startBareSqlServer } from "../support/bare-sql-server.js";
import { startKoaSqlServer } from "../support/koa-sql-server.js";
import type { LocalServer } from "../support/local-server.js";
import type { PgConnection, PgPool } from "../support/pg-pool.js";

const FILES = 100_000;
const TOP_FOLDERS = 10;
const SUBFOLDERS = 10; // per top folder: 100 leaf folders of 1,000 files each
const WARMUP = 100;
const SAMPLES = 300;
const TARGET = 1.5;
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Shape {
  title: string;
  search: string;
}

export async function benchFileList(): Promise<void> {
  const platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "bench_media_list", env: { MEDIA_VALIDITY_SWEEP_MS: "3600000" } });
  try {
    const { token, customerId } = await tenantWithViewer(platform);
    const knex = platform.knexOf("media");
    const { topId, leafId } = await seed(knex, customerId);
    const shapes: Shape[] = [
      { title: "folder filter (fileFolderId=, 1,000 files)", search: `fileFolderId=${leafId}` },
      { title: "recursive path (fileFolderPath:, 10,000 files)", search: `fileFolderPath:${topId}` },
      { title: "tag filter (tags:promo, 10,000 files)", search: "tags:promo" },
    ];
    log(`# GET /api/v2/file on ${FILES.toLocaleString("en")} files of one tenant (page of 20, default sort name, default select)\n`);
    const rows: string[][] = [];
    let missed = false;
    const client = createRemoteGet(platform.url);
    const auth = { authorization: `Bearer ${token}` };
    const list = (query: Record<string, string>) => async () => {
      const res = await client.get(`/api/v2/file?${new URLSearchParams(query)}`, auth);
      if (res.status !== 200) throw new Error(`list failed: ${res.status}`);
      return res.ms;
    };
    // Warm the whole path (JIT, pools, plan caches) on every shape before any sample.
    for (let i = 0; i < WARMUP; i++) for (const shape of shapes) await list({ search: shape.search })();
    for (const shape of shapes) {
      const query = { search: shape.search };
      const all = await captureSql(knex, list(query));
      const listSql = all.filter((s) => /from "file"/i.test(s.sql));
      if (process.env.SHOW_SQL) await showSql(knex, all, process.env.SHOW_SQL === "explain");
      if (listSql.length === 0) throw new Error("no file query captured");
      const bare = startFloor("bare", await startBareSqlServer(knex, listSql));
      const koa = startFloor("koa", await startKoaSqlServer(knex, listSql));
      const [viaGateway, direct, directAll, bareFloor, koaFloor] = await measureAlternating([list(query), await directRun(knex, listSql), await directRun(knex, all), bare.get, koa.get]).finally(async () => {
        await releaseDirect();
        await bare.close();
        await koa.close();
      });
      const ratio = viaGateway.p95 / direct.p95;
      missed ||= ratio > TARGET;
      rows.push([
        shape.title,
        ms(viaGateway.p50),
        ms(viaGateway.p95),
        ms(direct.p50),
        ms(direct.p95),
        `${ratio.toFixed(2)}x ${ratio <= TARGET ? "ok" : "MISSED"}`,
        `${ms(directAll.p50)} / ${ms(directAll.p95)} (${all.length})`,
        `${(viaGateway.p95 / directAll.p95).toFixed(2)}x`,
        floorCell(bareFloor, direct),
        floorCell(koaFloor, direct),
      ]);
    }
    // The platform's own floor: an authenticated call doing one primary-key read in core.
    const [floor] = await measureAlternating([async () => (await client.get("/api/v2/user/me", auth)).ms]);
    client.close();
    rows.push(["(floor) GET /api/v2/user/me, no list", ms(floor.p50), ms(floor.p95), "-", "-", "-", "-", "-", "-", "-"]);
    log(
      table(
        ["shape", "gateway p50", "gateway p95", "list SQL p50", "list SQL p95", `p95 ratio (target <= ${TARGET}x)`, "all media SQL p50 / p95 (stmts)", "p95 ratio to all SQL", "bare HTTP + list SQL p50 / p95 (ratio)", "koa floor p50 / p95 (ratio)"],
        rows,
      ),
    );
    log(`\n${missed ? "Target MISSED for at least one shape." : "Target met for every shape."}`);
    log("Bare HTTP + list SQL = a bare node:http server in the platform's process running the list SQL on media's pool (page and COUNT at once, as media sends them) and answering the rows as JSON, same client: one HTTP hop plus the SQL, the floor of any implementation on this machine.");
    log("Koa floor = the same SQL and JSON answer behind a Koa app with one @koa/router GET route (the gateway's framework, none of its middleware, auth or RPC), same pool and client: its distance to the bare floor is what the edge stack costs by itself. Floor ratios are to list SQL p95.");
    log("List SQL = media's page query (and COUNT when the page is full) for the same request; all media SQL = every statement media ran for it. Replayed sequentially on one pooled pg connection, samples alternating with the gateway's.");
  } finally {
    await platform.close();
  }
}

async function tenantWithViewer(platform: TestPlatform) {
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const customer = await createCustomer(platform.http, admin);
  const viewer = await createUser(platform.http, admin, customer.id, "VIEWER");
  for (let i = 0; i < 200; i++) {
    const res = await platform.http.get("/api/v2/fileFolder", { token: viewer.token, query: { search: "parentId=NULL" } });
    if (res.body.content?.length) return { token: viewer.token, customerId: customer.id as number };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("root folder never appeared");
}

/** 10 top folders x 10 subfolders, 1,000 files per subfolder; every 10th file tagged `promo`. */
async function seed(knex: Knex, customerId: number): Promise<{ topId: string; leafId: string }> {
  const started = performance.now();
  const root = await knex("file_folder").where({ customer_id: customerId }).whereNull("parent_id").first();
  await knex.raw(
    `INSERT INTO file_folder (id, customer_id, name, parent_id, path)
     SELECT t.id, ?, 'top-' || t.n, ?::uuid, ARRAY[?::uuid, t.id]
       FROM (SELECT n, gen_random_uuid() AS id FROM generate_series(1, ?) n) t`,
    [customerId, root.id, root.id, TOP_FOLDERS],
  );
  await knex.raw(
    `INSERT INTO file_folder (id, customer_id, name, parent_id, path)
     SELECT s.id, ?, p.name || '-sub-' || s.n, p.id, p.path || s.id
       FROM file_folder p CROSS JOIN LATERAL (SELECT n, gen_random_uuid() AS id FROM generate_series(1, ?) n) s
      WHERE p.customer_id = ? AND p.parent_id = ?::uuid`,
    [customerId, SUBFOLDERS, customerId, root.id],
  );
  const leaves: { id: string; path: string[] }[] = await knex("file_folder").where({ customer_id: customerId }).whereRaw("cardinality(path) = 3").orderBy("name");
  const perLeaf = FILES / leaves.length;
  await knex.raw(
    `INSERT INTO file (id, customer_id, name, content_type, type, size, width, height, crc_check_sum, file_folder_id, path, tags, creator_email, creator_name, storage_key, thumbnail_key)
     SELECT f.id, ?, 'file-' || lpad(f.g::text, 6, '0') || '.png', 'image/png', 'IMAGE', 1000 + f.g, 1920, 1080,
            to_hex(f.g % 5000), f.folder, f.path,
            CASE WHEN f.g % 10 = 0 THEN ARRAY['promo', 'tag-' || (f.g % 20)] ELSE ARRAY['tag-' || (f.g % 20)] END,
            'bench@example.test', 'Bench',
            -- As uploads store them (storage/blob-keys.ts): the list signs a URL for each.
            'files/' || ? || '/' || f.id || '.png', 'thumbnails/' || ? || '/' || f.id || '-0a1b2c3d.png'
       FROM (SELECT gen_random_uuid() AS id, g, l.id AS folder, l.path
               FROM jsonb_to_recordset(?::jsonb) AS l(i int, id uuid, path uuid[])
               CROSS JOIN LATERAL generate_series(l.i * ? + 1, (l.i + 1) * ?) g) f`,
    [customerId, customerId, customerId, JSON.stringify(leaves.map((l, i) => ({ i, id: l.id, path: l.path }))), perLeaf, perLeaf],
  );
  await knex.raw("ANALYZE file");
  await knex.raw("ANALYZE file_folder");
  log(`seeded ${FILES.toLocaleString("en")} files in ${leaves.length} folders in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { topId: leaves[0].path[1], leafId: leaves[0].id };
}

/** SHOW_SQL=1 prints each statement; SHOW_SQL=explain prints its EXPLAIN ANALYZE plan too. */
async function showSql(knex: Knex, statements: Statement[], explain: boolean): Promise<void> {
  for (const s of statements) {
    log(`SQL ${explain ? s.sql : s.sql.replace(/\s+/g, " ").slice(0, 600)}`);
    if (!explain) continue;
    const run = await directRun(knex, [{ sql: `EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, bindings: s.bindings }]);
    const plan = (await run().finally(releaseDirect)) as { rows: { "QUERY PLAN": string }[] }[];
    for (const row of plan[0].rows) log(`  ${row["QUERY PLAN"]}`);
  }
}

/** A floor server (support/*-sql-server.ts) and its own client process; `get` is one timed sample. */
function startFloor(name: string, server: LocalServer) {
  const client = createRemoteGet(server.url);
  return {
    get: async () => {
      const res = await client.get("/");
      if (res.status !== 200) throw new Error(`${name} list failed: ${res.status}`);
      return res.ms;
    },
    close: async () => {
      client.close();
      await server.close();
    },
  };
}

const floorCell = (floor: { p50: number; p95: number }, direct: { p95: number }) => `${ms(floor.p50)} / ${ms(floor.p95)} (${(floor.p95 / direct.p95).toFixed(2)}x)`;

const held: { pool: PgPool; connection: PgConnection }[] = [];

/** Replays `statements` in order on one connection taken from media's pool and held until `releaseDirect`. */
async function directRun(knex: Knex, statements: Statement[]): Promise<() => Promise<unknown[]>> {
  const pool = knex.client as unknown as PgPool;
  const connection = await pool.acquireConnection();
  held.push({ pool, connection });
  return async () => {
    const results: unknown[] = [];
    for (const s of statements) results.push(await connection.query(s.sql, s.bindings));
    return results;
  };
}

async function releaseDirect(): Promise<void> {
  for (const { pool, connection } of held.splice(0)) await pool.releaseConnection(connection);
}

/**
 * p50/p95 of each run, its samples interleaved with the others' (same machine load for all).
 * A run that measures itself (the probe process) returns its own milliseconds.
 */
async function measureAlternating(runs: Array<() => Promise<unknown>>): Promise<{ p50: number; p95: number }[]> {
  for (let i = 0; i < WARMUP; i++) for (const run of runs) await run();
  const times = runs.map(() => [] as number[]);
  for (let i = 0; i < SAMPLES; i++) {
    for (let r = 0; r < runs.length; r++) {
      const t = performance.now();
      const own = await runs[r]();
      times[r].push(typeof own === "number" ? own : performance.now() - t);
    }
  }
  return times.map((samples) => {
    samples.sort((a, b) => a - b);
    const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
    return { p50: at(0.5), p95: at(0.95) };
  });
}

const ms = (v: number) => `${v.toFixed(2)} ms`;

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}
