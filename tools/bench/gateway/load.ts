// Runs autocannon in a child process so the load generator never competes
// with the servers under test for this process's event loop.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

const child = fileURLToPath(new URL("./autocannon-child.mjs", import.meta.url));

/** `headerSets`: one per request in turn (e.g. one caller's token each). */
export function load(url: string, headerSets: Record<string, string>[], seconds: number, connections: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, JSON.stringify({ url, seconds, connections, headerSets })], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.on("data", (d) => (out += d));
    proc.on("error", reject);
    proc.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`load generator exited ${code}`))));
  });
}

/**
 * Loads each URL in turn for `rounds` short rounds (A, B, C, A, B, C ...), so a drift in the
 * machine's speed during the run (shared cores, frequency scaling) falls on every target alike.
 * Throughput is total requests over total time; p50/p99 are the means of the rounds' values.
 * `cpu`: CPU-second counters of processes (cpuSeconds(pid) ...), reported per request of each target.
 */
export async function loadInterleaved(
  urls: string[],
  headerSets: Record<string, string>[],
  seconds: number,
  connections: number,
  rounds: number,
  cpu: Record<string, () => number> = {},
): Promise<(LoadResult & { cpuUsPerRequest: Record<string, number> })[]> {
  const perRound = Math.max(1, Math.round(seconds / rounds));
  const results = urls.map(() => [] as LoadResult[]);
  // CPU seconds each probed process spent on each target, over all its rounds.
  const spent = urls.map(() => Object.fromEntries(Object.keys(cpu).map((name) => [name, 0])));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < urls.length; i++) {
      const before = Object.fromEntries(Object.entries(cpu).map(([name, read]) => [name, read()]));
      results[i].push(await load(urls[i], headerSets, perRound, connections));
      for (const [name, read] of Object.entries(cpu)) spent[i][name] += read() - before[name];
    }
  }
  const mean = (rs: LoadResult[], pick: (r: LoadResult) => number) => rs.reduce((sum, r) => sum + pick(r), 0) / rs.length;
  const sum = (rs: LoadResult[], pick: (r: LoadResult) => number) => rs.reduce((total, r) => total + pick(r), 0);
  return results.map((rs, i) => ({
    cpuUsPerRequest: Object.fromEntries(Object.entries(spent[i]).map(([name, secs]) => [name, (secs * 1e6) / Math.max(1, sum(rs, (r) => r.requestsPerSecond * perRound))])),
    requestsPerSecond: mean(rs, (r) => r.requestsPerSecond),
    p50: Math.round(mean(rs, (r) => r.p50) * 10) / 10,
    p99: Math.round(mean(rs, (r) => r.p99) * 10) / 10,
    errors: sum(rs, (r) => r.errors),
    non2xx: sum(rs, (r) => r.non2xx),
  }));
}
