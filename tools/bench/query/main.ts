/**
 * Benchmark of @signage/query: compile throughput, and list latency on 1,000,000 rows next to
 * the same queries hand-written in SQL. Creates and drops its own database.
 * Run: npm run bench:query   (DATABASE_URL = admin connection, default postgres@127.0.0.1)
 */
import knexFactory from "knex";
import { connectDriver, connectKnex, createBenchDatabase } from "./bench-database.js";
import { loadBenchData, ROWS } from "./bench-data.js";
import { measureCompileThroughput } from "./compile-throughput.js";
import { measureScenario, SCENARIOS } from "./list-latency.js";
import { ms, table } from "./stats.js";

const COMPILE_TARGET = 50_000;
const LATENCY_TARGET = 1.5;
const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const db = await createBenchDatabase();
  const stop = () => void db.drop().finally(() => process.exit(130));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  let failed = false;
  try {
    log(`# @signage/query benchmark (database ${db.name})\n`);
    log("## Compile throughput");
    const throughput = measureCompileThroughput(knexFactory({ client: "pg" }), 1_500);
    log(table(["stage", "expressions/s"], throughput.map((t) => [t.label, t.perSecond.toLocaleString("en")])));
    const compiled = throughput[2].perSecond;
    log(`target >= ${COMPILE_TARGET.toLocaleString("en")}/s (search text -> Knex where): ${compiled >= COMPILE_TARGET ? "met" : "MISSED"}`);
    log(`(the last line adds Knex's own SQL rendering, which every executed query pays once anyway)\n`);
    failed ||= compiled < COMPILE_TARGET;

    log(`## List latency, page of 20, ${ROWS.toLocaleString("en")} rows (tenant 1 = 900,000), registry indexes`);
    // Loading runs on its own connections: backends that just wrote 1M rows answer slower,
    // which would skew whichever side inherited them.
    const loader = connectKnex(db.url);
    await loadBenchData(loader, log).finally(() => loader.destroy());
    const knex = connectKnex(db.url);
    const pool = connectDriver(db.url);
    const rows: string[][] = [];
    for (const scenario of SCENARIOS) {
      const result = await measureScenario(knex, pool, scenario, 6_000).catch(async (error) => {
        await Promise.allSettled([knex.destroy(), pool.end()]);
        throw error;
      });
      const ratio = result.library.p95 / result.handWritten.p95;
      const required = !scenario.title.startsWith("(extra)");
      const verdict = ratio <= LATENCY_TARGET ? "ok" : required ? "MISSED" : "over";
      failed ||= required && ratio > LATENCY_TARGET;
      rows.push([
        scenario.title,
        result.totalElements.toLocaleString("en"),
        ms(result.library.p50),
        ms(result.library.p95),
        ms(result.handWritten.p50),
        ms(result.handWritten.p95),
        `${ratio.toFixed(2)}x ${verdict}`,
        String(result.library.samples),
      ]);
      log(`  measured ${scenario.title.replace(/\s+/g, " ")}`);
    }
    await Promise.allSettled([knex.destroy(), pool.end()]);
    log("");
    log(table(["query", "totalElements", "lib p50 ms", "lib p95 ms", "SQL p50 ms", "SQL p95 ms", `p95 lib/SQL (<= ${LATENCY_TARGET})`, "samples"], rows));
    log("\nSQL = the same request hand-written (page + count through the plain pg driver; for the count, count(*) alone).");
  } finally {
    await db.drop();
    log(`\ndropped ${db.name}`);
  }
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
