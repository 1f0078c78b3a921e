// `npm run start:cluster`: each service its own process, talking Connect (binary, h2c) over
// loopback, with DATABASE_URL and NATS_URL; the gateway in front. Ctrl-C stops all.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const env = process.env;
if (!env.DATABASE_URL || !env.NATS_URL) {
  console.error("start:cluster needs DATABASE_URL and NATS_URL (for example postgres://postgres@127.0.0.1:5432/signage and nats://127.0.0.1:4222)");
  process.exit(2);
}
const basePort = Number(env.CLUSTER_BASE_PORT || 50051);
const services = ["core", "media", "integration", "reporting", "licensing"];
const children: ChildProcess[] = [];

// CLUSTER_BUNDLED=<svc,svc|all>: those services run their production bundle
// (`npm run build -w apps/<svc>` first), as in the image; the rest run on tsx.
const bundled = new Set((env.CLUSTER_BUNDLED || "").split(",").map((s) => s.trim()).filter(Boolean));
function argsOf(name: string, entry: string): string[] {
  if (!bundled.has(name) && !bundled.has("all")) return ["--import", "tsx", "--import", "@signage/platform/register", entry];
  return ["--import", `./apps/${name}/dist/register.js`, `apps/${name}/dist/main.js`];
}

function start(name: string, entry: string, extra: Record<string, string>) {
  const child = spawn(process.execPath, argsOf(name, entry), { cwd: root, env: { ...env, ...extra }, stdio: ["ignore", "inherit", "inherit"] });
  child.on("exit", (code, signal) => {
    if (!stopping) {
      console.error(`${name} exited (${code ?? signal}); stopping the cluster`);
      stopAll(1);
    }
  });
  children.push(child);
}

// Every process gets every peer's address: the gateway calls all services, services call each other.
const urls: Record<string, string> = Object.fromEntries(services.map((name, i) => [`${name.toUpperCase()}_URL`, `http://127.0.0.1:${basePort + i}`]));
services.forEach((name, i) => {
  start(name, `apps/${name}/src/main.ts`, { ...urls, SERVICE_HOST: "127.0.0.1", SERVICE_PORT: String(basePort + i) });
});
start("gateway", "apps/gateway/src/main.ts", urls);

let stopping = false;
function stopAll(code: number) {
  stopping = true;
  for (const c of children) c.kill("SIGTERM");
  setTimeout(() => process.exit(code), 12_000).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once("exit", r))))).then(() => process.exit(code));
}
process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));
