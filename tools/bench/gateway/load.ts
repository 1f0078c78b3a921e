// Runs autocannon in a child process so the load generator never competes
// with the servers under test for this process's event loop.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

const autocannonBin = createRequire(import.meta.url).resolve("autocannon/autocannon.js");

export function load(url: string, headers: Record<string, string>, seconds: number, connections: number): Promise<LoadResult> {
  const args = [autocannonBin, "--json", "-c", String(connections), "-d", String(seconds)];
  for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}=${v}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}`));
      const r = JSON.parse(out);
      resolve({ requestsPerSecond: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx });
    });
  });
}
