// Crash review of media's streamed edges over HTTP through the real gateway: uploads cut short or
// reset at any point, downloads their clients leave early. Checked: no uncaught exception or
// unhandled rejection (either ends the process in production), nothing left open or behind (file
// descriptors, temp files, blob intents, pooled connections), and a client's failure reported as
// the client's, never as the server's.
import { randomBytes } from "node:crypto";
import { readdirSync, readlinkSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { connect } from "node:net";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Code, ConnectError, createRouterTransport, type Transport } from "@connectrpc/connect";
import { allFiles } from "@signage/contracts";
import { coreModule } from "@signage/core";
import { answerClientErrors, createGateway, upstreamsByPackage } from "@signage/gateway";
import { createInMemoryTransport } from "@signage/platform";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaModule } from "../src/module.js";
import { widgetZip } from "./support/custom-apps-zip.js";
import { png } from "./uploads-support.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One HTTP/1.1 request on a raw socket: the head, then `body` (possibly less than its
 * Content-Length says); then, after `readMs` of reading the answer, a reset (RST) or a half close.
 */
function rawRequest(base: string, req: { method: string; path: string; headers: Record<string, string>; body?: Buffer; readMs?: number; finish: "reset" | "half" }): Promise<{ status?: number; text: string }> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const received: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      if (req.finish === "reset") socket.resetAndDestroy();
      else socket.destroy();
      const text = Buffer.concat(received).toString("latin1");
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : undefined, text });
    };
    socket.on("data", (b: Buffer) => received.push(b));
    socket.on("error", () => undefined);
    socket.on("close", finish);
    socket.once("connect", () => {
      socket.write(`${req.method} ${req.path} HTTP/1.1\r\nHost: ${url.host}\r\n${Object.entries(req.headers).map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n`);
      if (req.body) socket.write(req.body);
      if (req.finish === "half") socket.end();
      if (!req.readMs) finish();
      else setTimeout(finish, req.readMs);
    });
  });
}

function form(boundary: string, parts: Array<{ field: string; filename: string; type: string; data: Buffer }>): Buffer {
  const out: Buffer[] = [];
  for (const p of parts) out.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.field}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`), p.data, Buffer.from("\r\n"));
  out.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(out);
}

/** The process's open file descriptors that point into `dir`. */
function openFilesUnder(dir: string): string[] {
  const open: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(dir)) open.push(target);
    } catch {
      // closed meanwhile
    }
  }
  return open;
}

const crashes: unknown[] = [];
const onCrash = (err: unknown) => void crashes.push(err);

let platform: TestPlatform;
let blobDir: string;
let editor: string;
let owner: string;
const B = "crashReviewBoundary";

/** A second gateway over the same services, whose log and media calls the tests can see. */
let observed: { url: string; errors: Array<Record<string, unknown>>; mediaCalls: Array<{ method: string; code: Code }>; server: Server };

let spoolRoot: string;
let savedTmpdir: string | undefined;

beforeAll(async () => {
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);
  blobDir = await mkdtemp(join(tmpdir(), "crash-review-blobs-"));
  // The package spool's temp folders go to os.tmpdir(): a private one, so other test files running
  // at the same time (their spools in the shared /tmp) cannot be taken for ours.
  spoolRoot = await mkdtemp(join(tmpdir(), "crash-review-spool-"));
  savedTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = spoolRoot;
  platform = await startPlatform({
    modules: [coreModule, mediaModule],
    prefix: "crash_review",
    env: { STORAGE_URL: blobDir, STORAGE_SIGNING_SECRET: "crash-review-signing-secret-0123456789", MEDIA_VALIDITY_SWEEP_MS: "3600000", UPLOAD_SWEEP_INTERVAL_MS: "3600000", UPLOAD_MAX_CHUNK_SIZE: String(4 * 1024 * 1024), CUSTOM_APP_MAX_UPLOAD_BYTES: String(8 * 1024 * 1024) },
  });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const customer = await createCustomer(platform.http, admin);
  editor = (await createUser(platform.http, admin, customer.id, "EDITOR")).token;
  owner = (await createUser(platform.http, admin, customer.id, "OWNER")).token;

  const errors: Array<Record<string, unknown>> = [];
  const mediaCalls: Array<{ method: string; code: Code }> = [];
  const transports: Record<string, Transport> = Object.fromEntries(platform.running.map((m) => [m.name, createInMemoryTransport(m.service.routes, { interceptors: m.service.interceptors })]));
  const media = transports.media;
  transports.media = {
    unary: media.unary,
    stream: async (...args: Parameters<Transport["stream"]>) => {
      try {
        return await media.stream(...args);
      } catch (err) {
        mediaCalls.push({ method: args[0].name, code: ConnectError.from(err).code });
        throw err;
      }
    },
  } as Transport;
  const absent = createRouterTransport(() => undefined);
  const gateway = createGateway({
    files: allFiles,
    upstreams: upstreamsByPackage({ integration: absent, reporting: absent, licensing: absent, ...transports }),
    logger: { info() {}, warn() {}, error: (obj: object, msg?: string) => void errors.push({ msg, ...obj }) },
  });
  const server = gateway.app.listen(0, "127.0.0.1");
  answerClientErrors(server);
  await new Promise<void>((ok) => server.once("listening", ok));
  observed = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, errors, mediaCalls, server };
}, 60_000);

afterAll(async () => {
  observed?.server.closeAllConnections();
  await new Promise((r) => observed?.server.close(r));
  await platform?.close();
  await rm(blobDir, { recursive: true, force: true });
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  if (spoolRoot) await rm(spoolRoot, { recursive: true, force: true });
  process.off("uncaughtException", onCrash);
  process.off("unhandledRejection", onCrash);
});

async function uploadFileWithPreview(name: string): Promise<{ id: string; location: string; thumbnail: string }> {
  const f = new FormData();
  f.append("files[]", new Blob([new Uint8Array(Buffer.concat([png(64, 64), Buffer.alloc(3_000_000, 7)]))], { type: "image/png" }), name);
  f.append("previews[]", new Blob([new Uint8Array(Buffer.concat([png(8, 8), Buffer.alloc(1_000_000, 1)]))], { type: "image/png" }), name);
  const res = await platform.http.post("/api/file", { token: editor, body: f });
  expect(res.status, res.text).toBe(200);
  return res.body[0];
}

async function appWithPackage(name: string): Promise<{ id: number; appRootPath: string }> {
  const created = await platform.http.post("/api/customApp/myApps", { token: owner, body: { name, type: "WIDGET" } });
  expect(created.status, created.text).toBe(200);
  const zip = await widgetZip({ name: `widget-${randomBytes(4).toString("hex")}`, version: "1.0.0" }, { "big.bin": randomBytes(1_500_000) });
  const f = new FormData();
  f.append("file", new Blob([new Uint8Array(zip)], { type: "application/zip" }), "package.zip");
  const res = await platform.http.post(`/api/customApp/myApps/${created.body.id}/upload`, { token: owner, body: f });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const pathOf = (url: string) => {
  const u = new URL(url, "http://x");
  return u.pathname + u.search;
};

describe("crash review: streamed uploads and downloads", { timeout: 120_000 }, () => {
  it("\"location | string | download URL\", thumbnail, package and private-app file downloads: a client that leaves before the answer arrives leaves no stored file open (each such request kept one file descriptor open for good)", async () => {
    const file = await uploadFileWithPreview("leave-early.png");
    const app = await appWithPackage("leave early app");
    const targets: Array<[string, Record<string, string>]> = [
      [pathOf(file.location), {}],
      [pathOf(file.thumbnail), {}],
      [`/api/customApp/myApps/${app.id}/download`, { authorization: `Bearer ${owner}` }],
      [pathOf(`${app.appRootPath.replace(/\/?$/, "/")}big.bin`), {}],
    ];
    for (const [path, headers] of targets) {
      for (const range of [undefined, "bytes=100-", "bytes=-5000"]) {
        for (let i = 0; i < 8; i++) await rawRequest(platform.url, { method: "GET", path, headers: { ...headers, ...(range ? { range } : {}) }, finish: "reset" });
      }
    }
    await sleep(500);
    expect(openFilesUnder(blobDir)).toEqual([]);
    // The bytes still download whole.
    const whole = await fetch(new URL(pathOf(file.location), platform.url));
    expect(whole.status).toBe(200);
    expect((await whole.arrayBuffer()).byteLength).toBe(3_000_000 + png(64, 64).length);
    await sleep(200);
    expect(openFilesUnder(blobDir)).toEqual([]);
    expect(crashes).toEqual([]);
  });

  it("\"Other upload outcomes preserved by the service: 400 ...\": a form cut short is the client's 400 (request.error.invalidMultipart), and media's call ends CANCELED, never INTERNAL (which media logs as \"rpc handler failed\" and counts as a server failure)", async () => {
    const file = await uploadFileWithPreview("cut-forms.png");
    const app = await appWithPackage("cut forms app");
    const opened = await platform.http.post("/api/v2/file/upload/init", { token: editor, body: { name: "cut.mp4", size: 200_000, totalChunks: 2, contentType: "video/mp4" } });
    expect(opened.status, opened.text).toBe(200);
    const cut = (field: string, filename: string, type: string) => form(B, [{ field, filename, type, data: Buffer.concat([png(4, 4), Buffer.alloc(100_000, 2)]) }]).subarray(0, 50_000);
    const requests: Array<[string, string, string, Buffer]> = [
      ["POST", "/api/file", editor, cut("files[]", "cut.png", "image/png")],
      ["PUT", `/api/v2/file/upload/${file.id}/thumbnail`, editor, cut("file", "t.png", "image/png")],
      ["PUT", `/api/v2/file/upload/${opened.body.uploadId}/part/1`, editor, cut("file", "c.bin", "application/octet-stream")],
      ["POST", `/api/customApp/myApps/${app.id}/upload`, owner, cut("file", "p.zip", "application/zip")],
    ];
    observed.mediaCalls.length = 0;
    for (const [method, path, token, body] of requests) {
      const res = await fetch(new URL(path, observed.url), { method, body: new Uint8Array(body), headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${B}` } });
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toMatchObject({ status: 400, key: "request.error.invalidMultipart" });
    }
    expect(observed.mediaCalls).toEqual([
      { method: "UploadFiles", code: Code.Canceled },
      { method: "UploadThumbnail", code: Code.Canceled },
      { method: "UploadPart", code: Code.Canceled },
      { method: "UploadMyAppPackage", code: Code.Canceled },
    ]);
    expect(crashes).toEqual([]);
  });

  it("a request its client abandoned (README: it \"counts as 499\") is the client's: downloads cut off mid-body or before it and requests reset before their answer log no gateway error", async () => {
    const file = await uploadFileWithPreview("abandoned.png");
    const app = await appWithPackage("abandoned app");
    observed.errors.length = 0;
    for (const path of [pathOf(file.location), pathOf(`${app.appRootPath.replace(/\/?$/, "/")}big.bin`)]) {
      for (const readMs of [0, 5, 50]) {
        for (let i = 0; i < 4; i++) await rawRequest(observed.url, { method: "GET", path, headers: {}, readMs, finish: "reset" });
      }
    }
    for (let i = 0; i < 4; i++) await rawRequest(observed.url, { method: "GET", path: "/api/v2/file", headers: { authorization: `Bearer ${editor}` }, finish: "reset" });
    await sleep(500);
    expect(observed.errors).toEqual([]);
    expect(crashes).toEqual([]);
  });

  it("uploads of every kind cut at any point, half-closed or reset, over Content-Length or chunked: no uncaught exception, no temp file, part or blob intent left, and the pool still serves", async () => {
    const file = await uploadFileWithPreview("target.png");
    const app = await appWithPackage("cut uploads app");
    const opened = await platform.http.post("/api/v2/file/upload/init", { token: editor, body: { name: "many.mp4", size: 4_000_000, totalChunks: 2, contentType: "video/mp4" } });
    const presigned = pathOf(opened.body.uploadUrls["2"]);
    const big = Buffer.alloc(2_000_000, 0x20);
    big.write("{}", 0);
    const simple = form(B, [{ field: "files[]", filename: "a.json", type: "application/json", data: big }, { field: "previews[]", filename: "a.json", type: "image/png", data: png(20, 20) }]);
    const multipart = { "content-type": `multipart/form-data; boundary=${B}` };
    const targets: Array<[string, string, Record<string, string>, Buffer]> = [
      ["POST", "/api/file", { authorization: `Bearer ${editor}`, ...multipart }, simple],
      ["PUT", `/api/v2/file/upload/${file.id}/thumbnail`, { authorization: `Bearer ${editor}`, "content-type": "image/png" }, Buffer.concat([png(10, 10), Buffer.alloc(1_000_000)])],
      ["PUT", `/api/v2/file/upload/${opened.body.uploadId}/part/2`, { authorization: `Bearer ${editor}`, "content-type": "application/octet-stream" }, Buffer.alloc(2_000_000, 1)],
      ["PUT", presigned, multipart, form(B, [{ field: "chunk", filename: "c", type: "application/octet-stream", data: Buffer.alloc(2_000_000, 1) }])],
      ["POST", `/api/customApp/myApps/${app.id}/upload`, { authorization: `Bearer ${owner}`, ...multipart }, form(B, [{ field: "file", filename: "p.zip", type: "application/zip", data: Buffer.alloc(2_000_000, 1) }])],
    ];
    for (const [method, path, headers, body] of targets) {
      // Inside the first part's headers, right after the boundary line, inside the bytes, just before the closing boundary.
      for (const at of [20, 40 + B.length, 150, 700_000, body.length - 10]) {
        const sent = body.subarray(0, at);
        const chunked = Buffer.from(`${sent.length.toString(16)}\r\n${sent.toString("latin1")}\r\n`, "latin1");
        const variants: Array<{ headers: Record<string, string>; body: Buffer; finish: "half" | "reset"; readMs: number }> = [
          { headers: { "content-length": String(body.length) }, body: sent, finish: "half", readMs: 300 },
          { headers: { "content-length": String(body.length) }, body: sent, finish: "reset", readMs: 20 },
          { headers: { "transfer-encoding": "chunked" }, body: chunked, finish: "reset", readMs: 20 },
        ];
        for (const variant of variants) {
          const res = await rawRequest(platform.url, { method, path, headers: { ...headers, ...variant.headers }, body: variant.body, finish: variant.finish, readMs: variant.readMs });
          if (res.status !== undefined) expect(res.status, `${method} ${path} cut at ${at}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
        }
      }
    }
    await sleep(1000);
    const knex = platform.knexOf("media");
    expect(await knex("blob_intent").select("key")).toEqual([]);
    expect(await readdir(join(blobDir, ".tmp")).catch(() => [])).toEqual([]);
    expect((await readdir(spoolRoot)).filter((n) => n.startsWith("custom-app-upload-"))).toEqual([]);
    // Only the still open session's part folder; nothing of it was stored.
    expect((await platform.http.get(`/api/v2/file/upload/${opened.body.uploadId}/recover`, { token: editor })).body.uploadedChunks).toEqual([]);
    expect((knex.client as { pool: { numUsed(): number } }).pool.numUsed()).toBe(0);
    const { rows } = await knex.raw("select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'");
    expect(rows[0].n).toBe(0);
    expect(openFilesUnder(blobDir)).toEqual([]);
    expect((await platform.http.get("/api/v2/file", { token: editor })).status).toBe(200);
    expect(crashes).toEqual([]);
  });
});
