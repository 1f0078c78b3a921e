import knexFactory from "knex";
import { applyCompiledFilter, compileFilter, parseFilter } from "@signage/query";
import { deviceResource } from "./bench-resource.js";
import { EXPRESSIONS } from "./compile-throughput.js";

const knex = knexFactory({ client: "pg" });
for (const text of EXPRESSIONS) {
  const compiled = compileFilter(deviceResource, parseFilter(text));
  const run = () => applyCompiledFilter(knex("device").select("id"), compiled).toSQL();
  for (let i = 0; i < 2000; i++) run();
  const n = 20000; const t = performance.now();
  for (let i = 0; i < n; i++) run();
  const us = ((performance.now() - t) / n) * 1000;
  const t2 = performance.now();
  for (let i = 0; i < n; i++) compileFilter(deviceResource, parseFilter(text));
  const us2 = ((performance.now() - t2) / n) * 1000;
  console.log(us.toFixed(1).padStart(6), "us toSQL", us2.toFixed(1).padStart(5), "us compile ", text);
}
const t = performance.now();
for (let i = 0; i < 20000; i++) knex("device").select("id").toSQL();
console.log("empty select toSQL", (((performance.now() - t) / 20000) * 1000).toFixed(1), "us");
