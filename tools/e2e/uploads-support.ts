// Helpers for the process-level upload tests: find a service process of a
// cluster started with a marker, read its peak RSS, and stream generated
// bodies over HTTP without holding them.
import { readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { crc32 } from "@node-rs/crc32";

/** The pid of the process running `entry` whose environment carries `marker=value`. */
export function findProcess(entry: string, marker: string, value: string): number | undefined {
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8");
      if (!cmdline.includes(entry)) continue;
      const environ = readFileSync(`/proc/${name}/environ`, "utf8").split("\0");
      if (environ.includes(`${marker}=${value}`)) return Number(name);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return undefined;
}

/**
 * The memory settings the production image gives every service (`ENV` lines
 * of k8s/Dockerfile: MALLOC_*, NODE_OPTIONS), so a test measures what runs.
 */
export function imageRuntimeEnv(dockerfile: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const m of readFileSync(dockerfile, "utf8").matchAll(/^ENV\s+(MALLOC_\w+|NODE_OPTIONS)=(?:"([^"]*)"|(\S+))\s*$/gm)) env[m[1]] = m[2] ?? m[3];
  return env;
}

/** Peak resident set size (VmHWM) and current RSS of a process, in MB. */
export function memoryOf(pid: number): { peakMb: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return { peakMb: kb("VmHWM") / 1024, rssMb: kb("VmRSS") / 1024 };
}

/** Deterministic bytes of part `n` (1-based) of `partSize`, generated 1 MiB at a time. */
export function* partBytes(n: number, partSize: number): Generator<Buffer> {
  const step = 1024 * 1024;
  for (let at = 0; at < partSize; at += step) {
    const len = Math.min(step, partSize - at);
    // A fresh buffer each time: a socket may still hold the previous one.
    const piece = Buffer.allocUnsafe(len).fill((n * 31 + at / step) & 0xff);
    if (len >= 4) piece.writeUInt32BE(n, 0);
    yield piece;
  }
}

export function crcOfParts(count: number, partSize: number): string {
  let crc = 0;
  for (let n = 1; n <= count; n++) for (const b of partBytes(n, partSize)) crc = crc32(b, crc);
  return (crc >>> 0).toString(16).padStart(8, "0");
}

export interface PutResult {
  status: number;
  body: string;
}

/**
 * Streams a body with a Content-Length; with `abortAfter` the connection is
 * destroyed after that many bytes (an interrupted upload).
 */
export function streamPut(url: string, method: string, headers: Record<string, string>, chunks: Iterable<Buffer>, length: number, abortAfter?: number): Promise<PutResult> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, "content-length": String(length) } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", (err) => (abortAfter !== undefined ? resolve({ status: 0, body: String(err) }) : reject(err)));
    const it = chunks[Symbol.iterator]();
    let sent = 0;
    const pump = () => {
      for (;;) {
        if (abortAfter !== undefined && sent >= abortAfter) {
          req.destroy(new Error("interrupted by the test"));
          return;
        }
        const next = it.next();
        if (next.done) {
          req.end();
          return;
        }
        sent += next.value.length;
        if (!req.write(next.value)) {
          req.once("drain", pump);
          return;
        }
      }
    };
    pump();
  });
}
