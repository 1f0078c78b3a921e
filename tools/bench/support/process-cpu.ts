// CPU seconds (user + system) processes have used, from /proc (Linux): what one request costs in
// each process of a composition, next to its throughput.
import { readdirSync, readFileSync } from "node:fs";

/** CPU seconds the process has used so far. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds of every PostgreSQL server process on this machine (backends come and go; those still alive). */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").startsWith("postgres")) total += cpuSeconds(Number(entry));
    } catch {
      // Gone since the listing.
    }
  }
  return total;
}
