/**
 * Upload throughput through the real gateway (HTTP -> streamed RPC -> media ->
 * filesystem blob store, with fsync), next to a plain file write of the same
 * bytes on the same disk: the same files (2 x 150 MiB, or the 8 x 64 MiB parts),
 * 1 MiB writes, each file fsynced (once written, and also synced as it grows like
 * the store: the faster counts). Target: each upload path at >= 70% of the
 * plain write's MB/s. Called by tools/bench/media/main.ts.
 *
 * The client runs in its own process (upload-child.mjs), as a real one would.
 * A third figure, the HTTP floor, is a bare node:http server writing the
 * request body straight to a file (synced as it grows and at the end, as the
 * store does): what receiving the bytes over HTTP costs on this machine before
 * any of our code runs. A fourth, HTTP receive only, is that server throwing the
 * body away: set next to the floor and the plain write, it shows whether HTTP,
 * the disk, or doing both at once on this machine is the limit.
 */
import { fork, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { performance } from "node:perf_hooks";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createCustomer, createUser, startPlatform, TEST_ADMIN } from "@signage/testing";
import { flushBehind } from "@signage/storage";

const MiB = 1024 * 1024;
const SIMPLE_FILE = Number(process.env.BENCH_SIMPLE_MB || 150) * MiB;
const SIMPLE_FILES = Number(process.env.BENCH_SIMPLE_FILES || 2);
const CHUNK = 64 * MiB;
const CHUNKS = Number(process.env.BENCH_CHUNKS || 8);
const TARGET = 0.7;
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const log = (line: string) => process.stdout.write(`${line}\n`);

/** 1 MiB pieces, fresh buffers, as the client sends them. */
function* pieces(total: number): Generator<Buffer> {
  for (let at = 0; at < total; at += MiB) yield Buffer.allocUnsafe(Math.min(MiB, total - at)).fill(at / MiB);
}

interface UploadSpec {
  url: string;
  method: string;
  headers: Record<string, string>;
  head?: Buffer;
  size: number;
  tail?: Buffer;
}
interface UploadAnswer {
  status: number;
  body: string;
  seconds: number;
}

/** The client process: one request at a time, timed on its side. */
function uploadClient(): { send(spec: UploadSpec): Promise<UploadAnswer>; close(): void } {
  const child: ChildProcess = fork(new URL("./upload-child.mjs", import.meta.url), { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let nextId = 0;
  const waiting = new Map<number, { ok: (a: UploadAnswer) => void; fail: (e: Error) => void }>();
  child.on("message", (m: UploadAnswer & { id: number; error?: string }) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error) w?.fail(new Error(m.error));
    else w?.ok(m);
  });
  return {
    send(spec) {
      const id = nextId++;
      return new Promise((ok, fail) => {
        waiting.set(id, { ok, fail });
        child.send({ id, ...spec, head: spec.head?.toString("base64"), tail: spec.tail?.toString("base64") });
      });
    },
    close: () => child.disconnect(),
  };
}

/**
 * Writes `source` to `path` and syncs it: once written ("end", the plainest write), or also in the
 * background as it grows ("growing", flushBehind, as the store does).
 */
async function writeSynced(path: string, source: Readable, sync: "end" | "growing", highWaterMark: number): Promise<void> {
  const handle = await open(path, "w");
  try {
    const out = createWriteStream(path, { highWaterMark });
    const behind = sync === "growing" ? flushBehind(handle, out) : undefined;
    await (behind ? pipeline(source, behind.trigger, out) : pipeline(source, out));
    await behind?.drain();
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** `files` files of `size` bytes each, written and synced one by one: the same files an upload path stores. */
async function plainWrite(dir: string, size: number, files: number, sync: "end" | "growing"): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < files; i++) await writeSynced(join(dir, `plain-${i}.bin`), Readable.from(pieces(size)), sync, 256 * 1024);
  const seconds = (performance.now() - t0) / 1000;
  for (let i = 0; i < files; i++) await rm(join(dir, `plain-${i}.bin`));
  return (files * size) / MiB / seconds;
}

/**
 * A bare node:http server that writes each request body to a file, synced as it grows like the
 * platform's store, so it stays the best plain receive-and-write.
 */
async function httpFloorServer(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  let n = 0;
  const receive = async (req: IncomingMessage) => {
    const path = join(dir, `floor-${n++}.bin`);
    try {
      await writeSynced(path, req, "growing", MiB);
    } finally {
      await rm(path, { force: true });
    }
  };
  const server = createServer((req: IncomingMessage, res) => {
    // /discard: the same body received and thrown away (what loopback HTTP alone delivers).
    if (req.url === "/discard") return void req.resume().once("end", () => res.end("{}"));
    receive(req).then(
      () => res.end("{}"),
      (err: Error) => res.writeHead(500).end(err.message),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((r) => server.close(() => r())) };
}

function multipartHead(boundary: string, filename: string): Buffer {
  return Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="${filename}"\r\nContent-Type: video/mp4\r\n\r\n`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchUploads(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "bench-media-upload-"));
  const platform = await startPlatform({
    modules: [coreModule, mediaModule],
    prefix: "bench_media_upload",
    // STORAGE_FLUSH_BEHIND_MB from the bench's environment (e.g. 0 for an A/B against syncing only at the end).
    env: { STORAGE_URL: join(dir, "blobs"), STORAGE_SIGNING_SECRET: "bench-signing-secret-0123456789", MEDIA_VALIDITY_SWEEP_MS: "3600000", STORAGE_FLUSH_BEHIND_MB: process.env.STORAGE_FLUSH_BEHIND_MB },
  });
  const client = uploadClient();
  const floor = await httpFloorServer(dir);
  try {
    const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const customer = await createCustomer(platform.http, admin);
    const editor = (await createUser(platform.http, admin, customer.id, "EDITOR")).token;
    const auth = { authorization: `Bearer ${editor}` };
    const raw = { ...auth, "content-type": "application/octet-stream" };

    // Rounds interleave each upload with its baselines, so load from other
    // processes hits all alike; the median round of each figure is shown.
    const runs = { simple: [] as number[], plainSimple: [] as number[], plainSimpleGrowing: [] as number[], floorSimple: [] as number[], parts: [] as number[], chunked: [] as number[], plainChunked: [] as number[], plainChunkedGrowing: [] as number[], floorChunked: [] as number[], receiveOnly: [] as number[], completeS: [] as number[] };
    const size = CHUNKS * CHUNK;
    for (let round = 0; round < ROUNDS; round++) {
      // The two plain writes swap places each round: neither always runs on a disk the other just filled.
      for (const sync of round % 2 ? (["growing", "end"] as const) : (["end", "growing"] as const)) {
        (sync === "end" ? runs.plainSimple : runs.plainSimpleGrowing).push(await plainWrite(dir, SIMPLE_FILE, SIMPLE_FILES, sync));
      }
      let floorSeconds = 0;
      for (let i = 0; i < SIMPLE_FILES; i++) floorSeconds += (await client.send({ url: floor.url, method: "POST", headers: raw, size: SIMPLE_FILE })).seconds;
      runs.floorSimple.push((SIMPLE_FILES * SIMPLE_FILE) / MiB / floorSeconds);
      let receiveSeconds = 0;
      for (let i = 0; i < SIMPLE_FILES; i++) receiveSeconds += (await client.send({ url: `${floor.url}discard`, method: "POST", headers: raw, size: SIMPLE_FILE })).seconds;
      runs.receiveOnly.push((SIMPLE_FILES * SIMPLE_FILE) / MiB / receiveSeconds);
      // Simple upload: multipart files[] below 200 MB.
      let simpleSeconds = 0;
      for (let i = 0; i < SIMPLE_FILES; i++) {
        const boundary = `bench${i}boundary`;
        const res = await client.send({
          url: `${platform.url}/api/file`,
          method: "POST",
          headers: { ...auth, "content-type": `multipart/form-data; boundary=${boundary}` },
          head: multipartHead(boundary, `clip-${round}-${i}.mp4`),
          size: SIMPLE_FILE,
          tail: Buffer.from(`\r\n--${boundary}--\r\n`),
        });
        if (res.status !== 200) throw new Error(`simple upload: ${res.status} ${res.body}`);
        simpleSeconds += res.seconds;
        await platform.http.delete(`/api/file/${(JSON.parse(res.body) as Array<{ id: string }>)[0].id}`, { token: editor });
      }
      runs.simple.push((SIMPLE_FILES * SIMPLE_FILE) / MiB / simpleSeconds);

      for (const sync of round % 2 ? (["growing", "end"] as const) : (["end", "growing"] as const)) {
        (sync === "end" ? runs.plainChunked : runs.plainChunkedGrowing).push(await plainWrite(dir, CHUNK, CHUNKS, sync));
      }
      floorSeconds = 0;
      for (let n = 1; n <= CHUNKS; n++) floorSeconds += (await client.send({ url: floor.url, method: "PUT", headers: raw, size: CHUNK })).seconds;
      runs.floorChunked.push(size / MiB / floorSeconds);
      // Chunked: init, parts through the API path, complete (assembly + CRC).
      const t0 = performance.now();
      const init = await platform.http.post("/api/v2/file/upload/init", { token: editor, body: { name: `movie-${round}.mp4`, size, totalChunks: CHUNKS, contentType: "video/mp4" } });
      if (init.status !== 200) throw new Error(`init: ${init.status} ${init.text}`);
      const { uploadId } = init.body as { uploadId: string };
      for (let n = 1; n <= CHUNKS; n++) {
        const res = await client.send({ url: `${platform.url}/api/v2/file/upload/${uploadId}/part/${n}`, method: "PUT", headers: raw, size: CHUNK });
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

    const best = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, median(v)])) as Record<keyof typeof runs, number>;
    // The target is judged against the faster plain write: the store's own sync strategy must not flatter the ratio.
    const row = (name: string, mbs: number, plainEnd: number, plainGrowing: number, httpFloor: number) => {
      const plain = Math.max(plainEnd, plainGrowing);
      const ratio = mbs / plain;
      log(
        `  ${name.padEnd(44)} ${mbs.toFixed(0).padStart(6)} MB/s   plain write ${plain.toFixed(0).padStart(6)} MB/s (synced at the end ${plainEnd.toFixed(0)}, as it grows ${plainGrowing.toFixed(0)})   ${(ratio * 100).toFixed(0).padStart(4)}%   ${ratio >= TARGET ? "OK" : "BELOW TARGET"}   (HTTP floor ${httpFloor.toFixed(0)} MB/s: ${((mbs / httpFloor) * 100).toFixed(0)}% of it)`,
      );
    };
    log(`Uploads through the gateway (filesystem store, fsync; client in its own process) vs the faster plain file write of the same bytes, same disk; median of ${ROUNDS} rounds (target >= ${TARGET * 100}%):`);
    row(`simple POST /api/file (${SIMPLE_FILES} x ${SIMPLE_FILE / MiB} MiB)`, best.simple, best.plainSimple, best.plainSimpleGrowing, best.floorSimple);
    row(`chunked parts only (${CHUNKS} x ${CHUNK / MiB} MiB)`, best.parts, best.plainChunked, best.plainChunkedGrowing, best.floorChunked);
    row(`chunked init+parts+complete (assembly, CRC)`, best.chunked, best.plainChunked, best.plainChunkedGrowing, best.floorChunked);
    log(`  complete (assemble ${size / MiB} MiB + CRC32, fsync): ${best.completeS.toFixed(2)} s`);
    log(`  HTTP floor: a bare node:http server writing the same bodies to a file (synced as it grows and at the end, as the store does), same client.`);
    log(`  HTTP receive only: the same server throwing the ${SIMPLE_FILE / MiB} MiB bodies away: ${best.receiveOnly.toFixed(0)} MB/s. When it is well above the HTTP floor, receiving and writing at once (not HTTP, not the disk alone) is what bounds any server here.`);
    log(`  Per round (MB/s): ${Object.entries(runs).filter(([k]) => k !== "completeS").map(([k, v]) => `${k} ${v.map((x) => x.toFixed(0)).join("/")}`).join("; ")}`);
  } finally {
    client.close();
    await floor.close();
    await platform.close();
    await rm(dir, { recursive: true, force: true });
  }
}
