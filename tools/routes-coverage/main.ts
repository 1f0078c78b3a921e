// `npm run routes:coverage`: a report, not a gate.
import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { allFiles } from "@signage/contracts";
import { buildRouteTable } from "@signage/gateway";
import { compareRoutes, parseRoutesTsv } from "./compare.js";

const specPath = process.env.ROUTES_TSV || fileURLToPath(new URL("../../../shared/spec/routes.tsv", import.meta.url));
if (!existsSync(specPath)) {
  console.error(`routes inventory not found at ${specPath} (set ROUTES_TSV)`);
  process.exit(0);
}
const report = compareRoutes(parseRoutesTsv(readFileSync(specPath, "utf8")), buildRouteTable(allFiles));
const verbose = process.argv.includes("--missing");
let covered = 0;
let total = 0;
for (const s of report) {
  covered += s.covered.length;
  total += s.total;
  console.log(`${s.service.padEnd(12)} ${String(s.covered.length).padStart(3)}/${String(s.total).padEnd(3)} covered, ${s.missing.length} missing, ${s.roleMismatches.length} role mismatch(es)`);
  for (const m of s.roleMismatches) console.log(`  role mismatch: ${m.route.method} ${m.route.path}: documented ${m.route.minRole}, contract ${m.ours}`);
  if (verbose) for (const r of s.missing) console.log(`  missing: ${r.method} ${r.path}`);
}
console.log(`total        ${covered}/${total} documented operations have a route (run with --missing to list the rest)`);
