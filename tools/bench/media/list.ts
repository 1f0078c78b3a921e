/**
 * `GET /api/v2/file` latency on one tenant holding 100,000 files, through the real gateway
 * (HTTP, auth, listRpc, projection), next to the very SQL the service ran for that request
 * (captured from media's Knex, replayed on a raw pg connection). Target: gateway p95 <= 1.5x
 * the direct SQL p95. Seeds its own test database (startPlatform) and drops it.
 * Called by tools/bench/media/main.ts; run alone with
 *   node --import tsx -e 'import("./tools/bench/media/list.ts").then((m) => m.benchFileList())'
 */
import { performance } from "node:perf_hooks";
import type { Knex } from "knex";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";

const FILES = 100_000;
const TOP_FOLDERS = 10;
const SUBFOLDERS = 10; // per top folder: 100 leaf folders of 1,000 files each
const WARMUP = 30;
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
    for (const shape of shapes) {
      const query = { search: shape.search };
      const sql = await captureSql(knex, () => platform.http.get("/api/v2/file", { token, query }));
      const viaGateway = await measure(async () => {
        const res = await platform.http.get("/api/v2/file", { token, query });
        if (res.status !== 200) throw new Error(`list failed: ${res.status} ${res.text}`);
      });
      const direct = await measureDirect(knex, sql);
      const ratio = viaGateway.p95 / direct.p95;
      missed ||= ratio > TARGET;
      rows.push([shape.title, ms(viaGateway.p50), ms(viaGateway.p95), ms(direct.p50), ms(direct.p95), `${ratio.toFixed(2)}x ${ratio <= TARGET ? "ok" : "MISSED"}`, String(sql.length)]);
    }
    // The platform's own floor: an authenticated call doing one primary-key read in core.
    const floor = await measure(async () => void (await platform.http.get("/api/v2/user/me", { token })));
    rows.push(["(floor) GET /api/v2/user/me, no list", ms(floor.p50), ms(floor.p95), "-", "-", "-", "1"]);
    log(table(["shape", "gateway p50", "gateway p95", "direct SQL p50", "direct SQL p95", `p95 ratio (target <= ${TARGET}x)`, "statements"], rows));
    log(`\n${missed ? "Target MISSED for at least one shape." : "Target met for every shape."}`);
    log("Direct SQL = the statements media ran for the same request (page query, and COUNT when the page is full), sequential on one pooled pg connection.");
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
    `INSERT INTO file (id, customer_id, name, content_type, type, size, width, height, crc_check_sum, file_folder_id, path, tags, creator_email, creator_name)
     SELECT gen_random_uuid(), ?, 'file-' || lpad(g::text, 6, '0') || '.png', 'image/png', 'IMAGE', 1000 + g, 1920, 1080,
            to_hex(g % 5000), l.id, l.path,
            CASE WHEN g % 10 = 0 THEN ARRAY['promo', 'tag-' || (g % 20)] ELSE ARRAY['tag-' || (g % 20)] END,
            'bench@example.test', 'Bench'
       FROM jsonb_to_recordset(?::jsonb) AS l(i int, id uuid, path uuid[])
       CROSS JOIN LATERAL generate_series(l.i * ? + 1, (l.i + 1) * ?) g`,
    [customerId, JSON.stringify(leaves.map((l, i) => ({ i, id: l.id, path: l.path }))), perLeaf, perLeaf],
  );
  await knex.raw("ANALYZE file");
  await knex.raw("ANALYZE file_folder");
  log(`seeded ${FILES.toLocaleString("en")} files in ${leaves.length} folders in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { topId: leaves[0].path[1], leafId: leaves[0].id };
}

/** The SQL media's Knex ran while `run` executed (the list's page and count queries). */
async function captureSql(knex: Knex, run: () => Promise<unknown>): Promise<{ sql: string; bindings: unknown[] }[]> {
  const seen: { sql: string; bindings: unknown[] }[] = [];
  const listener = (q: { sql: string; bindings?: unknown[] }) => {
    if (/from "file"/i.test(q.sql)) seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
  };
  knex.on("query", listener);
  try {
    await run();
  } finally {
    knex.off("query", listener);
  }
  if (seen.length === 0) throw new Error("no file query captured");
  // pg's Knex client reports the statement as sent ($1 placeholders), so it replays as is.
  return seen;
}

async function measureDirect(knex: Knex, statements: { sql: string; bindings: unknown[] }[]) {
  const client = knex.client as { acquireConnection(): Promise<{ query(sql: string, values: unknown[]): Promise<unknown> }>; releaseConnection(c: unknown): Promise<void> };
  const connection = await client.acquireConnection();
  try {
    return await measure(async () => {
      for (const s of statements) await connection.query(s.sql, s.bindings);
    });
  } finally {
    await client.releaseConnection(connection);
  }
}

async function measure(run: () => Promise<void>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < WARMUP; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p95: at(0.95) };
}

const ms = (v: number) => `${v.toFixed(2)} ms`;

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}
