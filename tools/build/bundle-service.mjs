// `npm run build -w apps/<svc>` (the `build` script of each app): bundles the
// service's TypeScript into apps/<svc>/dist so production runs plain `node`
// instead of compiling with tsx at start-up (tsx and its on-the-fly compile
// cost ~70-90 MB of resident memory per process).
//
//   dist/main.js        the service (node --import ./dist/register.js dist/main.js)
//   dist/register.js    the OTel ESM loader hook (@signage/platform/register)
//   dist/migrations/    the service's migrations, compiled one file each
//
// Our workspaces (@signage/*) are inlined; npm packages stay external, so
// OTel's loader hook and require hooks still patch koa, pg, http... when they
// are imported. Code splitting keeps `await import(...)` a real dynamic import:
// main.ts starts telemetry before the rest of the app (and its packages) loads.
// Plain JS, no TS loader needed to run it.
import { build } from "esbuild";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const app = process.cwd();
const out = join(app, "dist");
const keepWorkspacesInline = {
  name: "external-npm-packages",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("@signage/") || args.path.startsWith("node:")) return undefined;
      return { path: args.path, external: true };
    });
  },
};
const common = { bundle: true, platform: "node", format: "esm", target: "node20", sourcemap: "linked", logLevel: "warning", plugins: [keepWorkspacesInline] };

rmSync(out, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { main: join(app, "src/main.ts"), register: join(app, "../../libs/platform/src/telemetry/register.ts") },
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  outdir: out,
});
// module.ts finds its migrations at `new URL("../migrations/", import.meta.url)`:
// from a chunk in dist/chunks/ that is dist/migrations/, the compiled copies.
// It only holds while main.ts imports the module dynamically (its own chunk).
if (readFileSync(join(out, "main.js"), "utf8").includes('"../migrations/"')) {
  throw new Error(`${app}: the module is bundled into dist/main.js, where ../migrations/ points at the TypeScript sources; import it dynamically from main.ts`);
}
const migrations = join(app, "migrations");
if (existsSync(migrations)) {
  const files = readdirSync(migrations).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
  if (files.length > 0) await build({ ...common, entryPoints: files.map((f) => join(migrations, f)), outdir: join(out, "migrations") });
}
