/**
 * Upload throughput through the real gateway (HTTP -> streamed RPC -> media ->
 * filesystem blob store, with fsync), next to a plain file write of the same
 * bytes on the same disk (1 MiB writes + fsync). Target: each upload path at
 * >= 70% of the plain write's MB/s. Called by tools/bench/media/main.ts.
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createCustomer, createUser, startPlatform, TEST_ADMIN } from "@signage/testing";

const MiB = 1024 * 1024;
const SIMPLE_FILE = Number(process.env.BENCH_SIMPLE_MB || 150) * MiB;
const SIMPLE_FILES = Number(process.env.BENCH_SIMPLE_FILES || 2);
const CHUNK = 64 * MiB;
const CHUNKS = Number(process.env.BENCH_CHUNKS || 8);
const TARGET = 0.7;
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const log = (line: string) => process.stdout.write(`${line}\n`);

/** 1 MiB pieces, fresh buffers (a socket may still hold the previous one). */
function* pieces(total: number): Generator<Buffer> {
  for (let at = 0; at < total; at += MiB) yield Buffer.allocUnsafe(Math.min(MiB, total - at)).fill(at / MiB);
}

function send(url: string, method: string, headers: Record<string, string>, chunks: Iterable<Buffer>, length: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, "content-length": String(length) } }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    const it = chunks[Symbol.iterator]();
    const pump = () => {
      for (let next = it.next(); !next.done; next = it.next()) if (!req.write(next.value)) return void req.once("drain", pump);
      req.end();
    };
    pump();
  });
}

async function plainWrite(dir: string, total: number): Promise<number> {
  const path = join(dir, "plain.bin");
  const t0 = performance.now();
  const out = createWriteStream(path, { highWaterMark: 256 * 1024 });
  for (const piece of pieces(total)) if (!out.write(piece)) await new Promise<void>((r) => out.once("drain", () => r()));
  await new Promise<void>((ok, fail) => out.end((err?: Error | null) => (err ? fail(err) : ok())));
  const handle = await open(path, "r+");
  await handle.datasync();
  await handle.close();
  const seconds = (performance.now() - t0) / 1000;
  await rm(path);
  return total / MiB / seconds;
}

function multipartHead(boundary: string, filename: string): Buffer {
  return Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="${filename}"\r\nContent-Type: video/mp4\r\n\r\n`);
}

export async function benchUploads(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "bench-media-upload-"));
  const platform = await startPlatform({
    modules: [coreModule, mediaModule],
    prefix: "bench_media_upload",
    env: { STORAGE_URL: join(dir, "blobs"), STORAGE_SIGNING_SECRET: "bench-signing-secret-0123456789", MEDIA_VALIDITY_SWEEP_MS: "3600000" },
  });
  try {
    const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const customer = await createCustomer(platform.http, admin);
    const editor = (await createUser(platform.http, admin, customer.id, "EDITOR")).token;
    const auth = { authorization: `Bearer ${editor}` };

    // Rounds interleave each upload with its plain-write baseline, so load from
    // other processes hits both alike; the median round of each figure is shown.
    const runs = { simple: [] as number[], plainSimple: [] as number[], parts: [] as number[], chunked: [] as number[], plainChunked: [] as number[], completeS: [] as number[] };
    const size = CHUNKS * CHUNK;
    for (let round = 0; round < ROUNDS; round++) {
      runs.plainSimple.push(await plainWrite(dir, SIMPLE_FILES * SIMPLE_FILE));
      // Simple upload: multipart files[] below 200 MB.
      let simpleSeconds = 0;
      for (let i = 0; i < SIMPLE_FILES; i++) {
        const boundary = `bench${i}boundary`;
        const head = multipartHead(boundary, `clip-${round}-${i}.mp4`);
        const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
        const t0 = performance.now();
        const res = await send(`${platform.url}/api/file`, "POST", { ...auth, "content-type": `multipart/form-data; boundary=${boundary}` }, [head, ...pieces(SIMPLE_FILE), tail], head.length + SIMPLE_FILE + tail.length);
        if (res.status !== 200) throw new Error(`simple upload: ${res.status} ${res.body}`);
        simpleSeconds += (performance.now() - t0) / 1000;
      }
      runs.simple.push((SIMPLE_FILES * SIMPLE_FILE) / MiB / simpleSeconds);

      runs.plainChunked.push(await plainWrite(dir, size));
      // Chunked: init, parts through the API path, complete (assembly + CRC).
      const t0 = performance.now();
      const init = await platform.http.post("/api/v2/file/upload/init", { token: editor, body: { name: `movie-${round}.mp4`, size, totalChunks: CHUNKS, contentType: "video/mp4" } });
      if (init.status !== 200) throw new Error(`init: ${init.status} ${init.text}`);
      const { uploadId } = init.body as { uploadId: string };
      for (let n = 1; n <= CHUNKS; n++) {
        const res = await send(`${platform.url}/api/v2/file/upload/${uploadId}/part/${n}`, "PUT", { ...auth, "content-type": "application/octet-stream" }, pieces(CHUNK), CHUNK);
        if (res.status !== 200) throw new Error(`part ${n}: ${res.status} ${res.body}`);
      }
      const partsDone = performance.now();
      const complete = await platform.http.post(`/api/v2/file/upload/${uploadId}/complete`, { token: editor });
      if (complete.status !== 200) throw new Error(`complete: ${complete.status} ${complete.text}`);
      const t1 = performance.now();
      runs.parts.push(size / MiB / ((partsDone - t0) / 1000));
      runs.chunked.push(size / MiB / ((t1 - t0) / 1000));
      runs.completeS.push((t1 - partsDone) / 1000);
      // Keep the disk from filling up across rounds.
      await platform.http.delete(`/api/file/${complete.body.id}`, { token: editor });
    }

    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const best = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, median(v)])) as Record<keyof typeof runs, number>;
    const row = (name: string, mbs: number, plain: number) => {
      const ratio = mbs / plain;
      log(`  ${name.padEnd(44)} ${mbs.toFixed(0).padStart(6)} MB/s   plain write ${plain.toFixed(0).padStart(6)} MB/s   ${(ratio * 100).toFixed(0).padStart(4)}%   ${ratio >= TARGET ? "OK" : "BELOW TARGET"}`);
    };
    log(`Uploads through the gateway (filesystem store, fsync) vs a plain file write of the same bytes, same disk; median of ${ROUNDS} rounds (target >= ${TARGET * 100}%):`);
    row(`simple POST /api/file (${SIMPLE_FILES} x ${SIMPLE_FILE / MiB} MiB)`, best.simple, best.plainSimple);
    row(`chunked parts only (${CHUNKS} x ${CHUNK / MiB} MiB)`, best.parts, best.plainChunked);
    row(`chunked init+parts+complete (assembly, CRC)`, best.chunked, best.plainChunked);
    log(`  complete (assemble ${size / MiB} MiB + CRC32, fsync): ${best.completeS.toFixed(2)} s`);
  } finally {
    await platform.close();
    await rm(dir, { recursive: true, force: true });
  }
}
