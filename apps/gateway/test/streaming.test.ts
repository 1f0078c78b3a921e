// The streamed-body edge (stream.proto convention): multipart and raw uploads
// into client-streaming RPCs, downloads with Range from server-streaming RPCs,
// the size cap, early errors and backpressure — over the in-memory transport
// and over h2c Connect, against a small in-test implementation of the real
// BlobAccessService contract.
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crc32 } from "@node-rs/crc32";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createRouterTransport, type ConnectRouter, type Transport } from "@connectrpc/connect";
import { ErrorDetailSchema } from "@signage/contracts/signage/common/v1/error_pb";
import { BlobAccessService } from "@signage/contracts/signage/media/v1/upload_pb";
import { createLogger, createService, createServiceTransport } from "@signage/platform";
import { rangedHead } from "./support/ranged-blob.js";
import { listenGateway } from "./support/listen-gateway.js";
import { TEST_BEARER } from "./support/bearer-fetch.js";

const loggedErrors: unknown[] = [];
const silent = { info() {}, warn() {}, error: (...args: unknown[]) => void loggedErrors.push(args) };
const BLOB = Buffer.alloc(3 * 1024 * 1024 + 17, 0);
for (let i = 0; i < BLOB.length; i++) BLOB[i] = (i * 7 + (i >> 11)) & 0xff;

interface Received {
  first: Record<string, unknown>;
  heads: Array<Record<string, unknown>>;
  bytes: number[];
  crcs: number[];
}

const state = { slowMs: 0, clientBytes: 0, maxGap: 0, failAfterBytes: 0, answerAfterChunks: 0, answeredChunks: 0 };

function register(router: ConnectRouter) {
  router.service(BlobAccessService, {
    async putPresignedPart(requests) {
      const received: Received = { first: {}, heads: [], bytes: [], crcs: [] };
      let seen = 0;
      for await (const req of requests) {
        const kind = req.body?.kind;
        if (!kind || kind.case === undefined) {
          received.first = { uploadId: req.uploadId, partNumber: req.partNumber, expires: req.expires, maxSize: req.maxSize, signature: req.signature };
        } else if (kind.case === "head") {
          received.heads.push({ field: kind.value.field, filename: kind.value.filename, contentType: kind.value.contentType, size: kind.value.size === undefined ? undefined : Number(kind.value.size), value: kind.value.value });
          received.bytes.push(0);
          received.crcs.push(0);
        } else {
          const i = received.bytes.length - 1;
          received.bytes[i] += kind.value.length;
          received.crcs[i] = crc32(kind.value, received.crcs[i]);
          seen += kind.value.length;
          state.maxGap = Math.max(state.maxGap, state.clientBytes - seen);
          if (state.failAfterBytes && seen >= state.failAfterBytes) {
            throw new ConnectError("too big", Code.ResourceExhausted, undefined, [
              { desc: ErrorDetailSchema, value: create(ErrorDetailSchema, { key: "upload.error.payloadTooLarge", details: { maxBytes: state.failAfterBytes } }) },
            ]);
          }
          if (state.slowMs) await new Promise((r) => setTimeout(r, state.slowMs));
          // A service that has what it needs before the body ends answers at once.
          if (state.answerAfterChunks && ++state.answeredChunks >= state.answerAfterChunks) break;
        }
      }
      return { sessionId: JSON.stringify(received), success: true, uploadedSize: BigInt(seen) };
    },
    async *getPresignedBlob(req) {
      if (req.blob === "missing") throw new ConnectError("no such blob", Code.NotFound);
      // The service picks the disposition type (blob "attachment" here stands for a package download).
      const disposition: Record<string, string> = req.blob === "attachment" ? { "content-disposition": "attachment" } : {};
      const { start, end, head } = rangedHead(BLOB, req.range, { contentType: req.contentType ?? "application/octet-stream", filename: req.filename ?? "", headers: disposition });
      yield head;
      for (let at = start; at <= end; at += 100_000) {
        yield { body: { kind: { case: "chunk", value: BLOB.subarray(at, Math.min(end + 1, at + 100_000)) } } };
      }
    },
  });
}

function multipartBody(boundary: string, parts: Array<{ name: string; filename?: string; type?: string; data: Buffer | string }>): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ""}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ""}\r\n`));
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data));
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** PUT with a streamed body (no Content-Length unless given), counting what the client has handed over. */
function streamingPut(url: string, source: AsyncIterable<Buffer>, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "PUT", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    Readable.from(source).on("error", reject).pipe(req);
  });
}

/**
 * A PUT (or `method`) of `total` body bytes after `head` on a raw keep-alive socket, written to the end
 * whatever the server answers meanwhile, then a second request on the same socket: the
 * status lines of both answers (the second is missing when the connection got stuck or cut).
 */
function putThenNextRequest(base: string, path: string, contentType: string, head: Buffer, total: number, method = "PUT"): Promise<string[]> {
  const { port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), "127.0.0.1");
    let received = "";
    const statuses = () => received.match(/HTTP\/1\.1 \d+/g) ?? [];
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(statuses());
    };
    const timer = setTimeout(finish, 8000);
    socket.on("data", (d: Buffer) => {
      received += d.toString("latin1");
      if (statuses().length === 2) finish();
    });
    socket.on("error", finish);
    socket.on("close", finish);
    socket.write(`${method} ${path} HTTP/1.1\r\nHost: t\r\nAuthorization: ${TEST_BEARER}\r\nContent-Type: ${contentType}\r\nContent-Length: ${head.length + total}\r\n\r\n`);
    socket.write(head);
    const piece = Buffer.alloc(64 * 1024, 1);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        const n = Math.min(piece.length, total - sent);
        sent += n;
        if (!socket.write(n === piece.length ? piece : piece.subarray(0, n))) return void socket.once("drain", pump);
      }
      socket.write("GET /no-such-route HTTP/1.1\r\nHost: t\r\n\r\n");
    };
    pump();
  });
}

async function* counted(total: number, chunk = 64 * 1024): AsyncGenerator<Buffer> {
  const piece = Buffer.alloc(chunk, 1);
  for (let sent = 0; sent < total; sent += chunk) {
    state.clientBytes += chunk;
    yield piece;
  }
}

const transports: Array<[string, () => Promise<{ transport: Transport; close(): Promise<void> }>]> = [
  ["in-memory transport", async () => ({ transport: createRouterTransport(register), close: async () => undefined })],
  [
    "h2c Connect",
    async () => {
      const service = createService({ name: "media", logger: createLogger({ name: "t", level: "silent" }), register });
      const listening = await service.listen({ host: "127.0.0.1", port: 0 });
      return { transport: createServiceTransport({ baseUrl: listening.url, protocol: "connect" }), close: () => service.close({ timeoutMs: 100 }) };
    },
  ],
];

describe.each(transports)("streamed bodies over %s", (_name, makeTransport) => {
  let base = "";
  let closeAll: () => Promise<void>;

  beforeAll(async () => {
    const { transport, close } = await makeTransport();
    const gateway = await listenGateway(transport, { logger: silent, streaming: { maxBodyBytes: 80 * 1024 * 1024 } });
    base = gateway.base;
    closeAll = async () => {
      await gateway.close();
      await close();
    };
  });
  afterAll(() => closeAll());

  it("multipart: first message has the path and query fields, then a head per field/file and the file bytes in order", async () => {
    const data = BLOB.subarray(0, 1_500_000);
    const boundary = "xYzBoundary";
    const body = multipartBody(boundary, [
      { name: "note", data: "hello" },
      { name: "files[]", filename: "a.png", type: "image/png", data },
      { name: "previews[]", filename: "a.png", type: "image/jpeg", data: "thumb" },
    ]);
    const res = await fetch(`${base}/storage/v1/parts/up-1/3?expires=99&signature=sig&maxSize=10`, { method: "PUT", headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { sessionId: string; uploadedSize: number; success: boolean };
    expect(answer.uploadedSize).toBe(data.length + 5);
    const received = JSON.parse(answer.sessionId) as Received;
    expect(received.first).toEqual({ uploadId: "up-1", partNumber: 3, expires: "99", maxSize: "10", signature: "sig" });
    expect(received.heads).toEqual([
      { field: "note", filename: "", contentType: "text/plain", value: "hello" },
      { field: "files[]", filename: "a.png", contentType: "image/png" },
      { field: "previews[]", filename: "a.png", contentType: "image/jpeg" },
    ]);
    expect(received.bytes).toEqual([0, data.length, 5]);
    expect(received.crcs[1]).toBe(crc32(data));
  });

  it("a file input left empty (browsers send an empty part with filename=\"\") is no file; a nameless part with bytes still is", async () => {
    const boundary = "emptyInput";
    const body = multipartBody(boundary, [
      { name: "files[]", filename: "", type: "application/octet-stream", data: "" },
      { name: "files[]", filename: "a.png", type: "image/png", data: "png!" },
      { name: "previews[]", filename: "", type: "image/png", data: "p" },
    ]);
    const res = await fetch(`${base}/storage/v1/parts/up-11/1?expires=1&signature=s`, { method: "PUT", headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body });
    expect(res.status).toBe(200);
    const received = JSON.parse(((await res.json()) as { sessionId: string }).sessionId) as Received;
    expect(received.heads.map((h) => [h.field, h.filename])).toEqual([
      ["files[]", "a.png"],
      ["previews[]", ""],
    ]);
    expect(received.bytes).toEqual([4, 1]);
  });

  it("malformed multipart answers 400 request.error.invalidMultipart (no boundary, cut short, bad part header, oversized field)", async () => {
    const put = (contentType: string, body: Buffer | string) => fetch(`${base}/storage/v1/parts/up-1/3?expires=99&signature=sig`, { method: "PUT", headers: { "content-type": contentType }, body });
    const full = multipartBody("bnd", [{ name: "files[]", filename: "a.png", type: "image/png", data: BLOB.subarray(0, 200_000) }]);
    const cases: Array<[string, Buffer | string, RegExp]> = [
      ["multipart/form-data", full, /names no boundary/],
      ["multipart/form-data; boundary=bnd", full.subarray(0, full.length - 12), /Unexpected end of form/],
      ["multipart/form-data; boundary=bnd", "--bnd\r\nno colon here\r\n\r\nx\r\n--bnd--\r\n", /Malformed part header/],
      ["multipart/form-data; boundary=bnd", multipartBody("bnd", [{ name: "note", data: "n".repeat(1024 * 1024 + 1) }]), /form field 'note' exceeds 1048576 bytes/],
    ];
    for (const [contentType, body, message] of cases) {
      const res = await put(contentType, body);
      const answer = (await res.json()) as { key: string; message: string };
      expect([res.status, answer.key], String(message)).toEqual([400, "request.error.invalidMultipart"]);
      expect(answer.message).toMatch(message);
    }
  });

  it("an answer before the body's end leaves the keep-alive connection usable: the rest is drained and the next request answered", async () => {
    const part = (name: string) => Buffer.from(`--k\r\nContent-Disposition: form-data; name="${name}"; filename="x.bin"\r\n\r\n`);
    const upload = "/storage/v1/parts/up-8/1?expires=1&signature=s";
    const MB20 = 20 * 1024 * 1024;
    state.answerAfterChunks = 2;
    state.answeredChunks = 0;
    try {
      expect(await putThenNextRequest(base, upload, "multipart/form-data; boundary=k", part("files[]"), MB20), "service answered early").toEqual(["HTTP/1.1 200", "HTTP/1.1 404"]);
    } finally {
      state.answerAfterChunks = 0;
    }
    const badHead = Buffer.from("--k\r\nno colon in this header\r\n\r\n");
    expect(await putThenNextRequest(base, upload, "multipart/form-data; boundary=k", badHead, MB20), "bad part header").toEqual(["HTTP/1.1 400", "HTTP/1.1 404"]);
    const fields = Buffer.from(Array.from({ length: 1001 }, (_, i) => `--k\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join(""));
    expect(await putThenNextRequest(base, upload, "multipart/form-data; boundary=k", fields, MB20), "too many fields").toEqual(["HTTP/1.1 400", "HTTP/1.1 404"]);
    // The small-file edge (profile pictures): 413 as soon as the file passes its cap.
    expect(await putThenNextRequest(base, "/api/v2/user/profilePicture", "multipart/form-data; boundary=k", part("file"), MB20, "POST"), "picture too large").toEqual(["HTTP/1.1 413", "HTTP/1.1 404"]);
  });

  it("the cap counts every byte of a multipart body, not only files: fields and skipped parts too", async () => {
    const upload = `${base}/storage/v1/parts/up-9/1?expires=1&signature=s`;
    const field = Buffer.from(`--k\r\nContent-Disposition: form-data; name="note"\r\n\r\n${"n".repeat(1000 * 1000)}\r\n`);
    const filler = Buffer.alloc(1024 * 1024, 0x61);
    async function* body(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 10; i++) yield field;
      // A part that is not form data: skipped by the parser, still counted (10 MB of fields + 75 MB > 80 MB).
      yield Buffer.from("--k\r\nContent-Type: text/plain\r\n\r\n");
      for (let i = 0; i < 75; i++) yield filler;
      yield Buffer.from("\r\n--k--\r\n");
    }
    const res = await streamingPut(upload, body(), { "content-type": "multipart/form-data; boundary=k" });
    expect([res.status, JSON.parse(res.body).key]).toEqual([413, "upload.error.payloadTooLarge"]);
  });

  it("a client that goes away mid-upload is no server failure: nothing is logged as an error", async () => {
    loggedErrors.length = 0;
    const { port } = new URL(base);
    const socket = connect(Number(port), "127.0.0.1");
    socket.write(`PUT /storage/v1/parts/up-10/1?expires=1&signature=s HTTP/1.1\r\nHost: t\r\nContent-Type: multipart/form-data; boundary=k\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`);
    socket.write('--k\r\nContent-Disposition: form-data; name="files[]"; filename="x.bin"\r\n\r\n');
    socket.write(Buffer.alloc(2 * 1024 * 1024, 1));
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    await new Promise((r) => setTimeout(r, 300));
    expect(loggedErrors).toEqual([]);
  });

  it("raw body: one head (content type, Content-Length as size) then the bytes", async () => {
    const res = await fetch(`${base}/storage/v1/parts/up-2/1?expires=1&signature=s`, { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: BLOB });
    expect(res.status).toBe(200);
    const received = JSON.parse(((await res.json()) as { sessionId: string }).sessionId) as Received;
    expect(received.heads).toEqual([{ field: "", filename: "", contentType: "application/octet-stream", size: BLOB.length }]);
    expect(received.bytes).toEqual([BLOB.length]);
    expect(received.crcs[0]).toBe(crc32(BLOB));
  });

  it("size cap: a declared Content-Length above the cap answers 413 upload.error.payloadTooLarge at once", async () => {
    const res = await streamingPut(`${base}/storage/v1/parts/up-3/1?expires=1&signature=s`, counted(81 * 1024 * 1024), { "content-length": String(81 * 1024 * 1024), "content-type": "application/octet-stream" });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ status: 413, key: "upload.error.payloadTooLarge" });
  });

  it("size cap: an undeclared (chunked) body is cut at the cap with 413", async () => {
    const res = await streamingPut(`${base}/storage/v1/parts/up-4/1?expires=1&signature=s`, counted(90 * 1024 * 1024), { "content-type": "application/octet-stream" });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ key: "upload.error.payloadTooLarge", details: { maxBytes: 80 * 1024 * 1024 } });
  });

  it("a service error in mid-upload reaches the client as the mapped status and error body", async () => {
    state.failAfterBytes = 2 * 1024 * 1024;
    try {
      const res = await streamingPut(`${base}/storage/v1/parts/up-5/1?expires=1&signature=s`, counted(40 * 1024 * 1024), { "content-type": "application/octet-stream" });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({ key: "upload.error.payloadTooLarge" });
    } finally {
      state.failAfterBytes = 0;
    }
  });

  /** The most the gateway read ahead of a service that takes 2 ms per chunk, during `upload` (which must succeed). */
  async function readAheadOfSlowService(upload: () => Promise<{ status: number }>): Promise<number> {
    state.slowMs = 2;
    state.clientBytes = 0;
    state.maxGap = 0;
    try {
      expect((await upload()).status).toBe(200);
      return state.maxGap;
    } finally {
      state.slowMs = 0;
    }
  }
  const BACKPRESSURE_TOTAL = 48 * 1024 * 1024;

  it("backpressure: with a slow service the gateway stays within a few MB of what the service has consumed", async () => {
    const readAhead = await readAheadOfSlowService(() => streamingPut(`${base}/storage/v1/parts/up-6/1?expires=1&signature=s`, counted(BACKPRESSURE_TOTAL), { "content-type": "application/octet-stream" }));
    // Without backpressure the whole body (48 MB) would be read ahead.
    expect(readAhead).toBeLessThan(12 * 1024 * 1024);
  });

  it("backpressure holds for multipart bodies too: the parser reads the socket only when the service asks", async () => {
    async function* multipart(): AsyncGenerator<Buffer> {
      yield Buffer.from('--bp\r\nContent-Disposition: form-data; name="files[]"; filename="big.bin"\r\n\r\n');
      yield* counted(BACKPRESSURE_TOTAL);
      yield Buffer.from("\r\n--bp--\r\n");
    }
    const readAhead = await readAheadOfSlowService(() => streamingPut(`${base}/storage/v1/parts/up-7/1?expires=1&signature=s`, multipart(), { "content-type": "multipart/form-data; boundary=bp" }));
    expect(readAhead).toBeLessThan(12 * 1024 * 1024);
  });

  it("download: head sets status, type, length and file name; the bytes stream", async () => {
    const res = await fetch(`${base}/storage/v1/blobs/b1?expires=1&signature=s&filename=${encodeURIComponent("clip ä.mp4")}&contentType=video/mp4`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(res.headers.get("content-length")).toBe(String(BLOB.length));
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("content-disposition")).toContain("filename*=UTF-8''clip%20%C3%A4.mp4");
    expect(Buffer.from(await res.arrayBuffer()).equals(BLOB)).toBe(true);
  });

  it("download: RFC 6266 Content-Disposition, inline by default: an ASCII quoted fallback (no '\"', '\\', non-ASCII or %XX) and filename* with only RFC 8187 attr-chars", async () => {
    const disposition = async (blob: string, filename: string) => {
      const res = await fetch(`${base}/storage/v1/blobs/${blob}?expires=1&signature=s&filename=${encodeURIComponent(filename)}`, { method: "HEAD" });
      expect(res.status).toBe(200);
      return res.headers.get("content-disposition");
    };
    expect(await disposition("b1", "plain.png")).toBe(`inline; filename="plain.png"; filename*=UTF-8''plain.png`);
    expect(await disposition("b1", 'we ird #?%"ü.png')).toBe(`inline; filename="we ird #?%__.png"; filename*=UTF-8''we%20ird%20%23%3F%25%22%C3%BC.png`);
    expect(await disposition("b1", "it's (1)*%41\\.png")).toBe(`inline; filename="it's (1)*_41_.png"; filename*=UTF-8''it%27s%20%281%29%2A%2541%5C.png`);
    // "attachment" from the service's head (a package to save); the name parameters stay the gateway's.
    expect(await disposition("attachment", "Café-1.0.zip")).toBe(`attachment; filename="Caf_-1.0.zip"; filename*=UTF-8''Caf%C3%A9-1.0.zip`);
  });

  it("download: stored bytes served from the API origin are inert (an uploaded SVG or HTML page cannot run script there): nosniff and a script-free CSP", async () => {
    const res = await fetch(`${base}/storage/v1/blobs/b1?expires=1&signature=s&contentType=image/svg%2Bxml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toMatch(/default-src 'none'.*form-action 'none'/);
    await res.arrayBuffer();
    // A PDF keeps nosniff but no policy: browsers would refuse to show it at all.
    const pdf = await fetch(`${base}/storage/v1/blobs/b1?expires=1&signature=s&contentType=application/pdf`);
    expect(pdf.headers.get("x-content-type-options")).toBe("nosniff");
    expect(pdf.headers.get("content-security-policy")).toBeNull();
    await pdf.arrayBuffer();
  });

  it("download: the Range header reaches the service's `range` field; 206 with Content-Range", async () => {
    const res = await fetch(`${base}/storage/v1/blobs/b1?expires=1&signature=s`, { headers: { range: "bytes=1000-250999" } });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 1000-250999/${BLOB.length}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(BLOB.subarray(1000, 251000))).toBe(true);
  });

  it("download: an error before the head renders the error body", async () => {
    const res = await fetch(`${base}/storage/v1/blobs/missing?expires=1&signature=s`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: 404, key: "error.notFound" });
  });

  it("OpenAPI documents streamed uploads as multipart/octet-stream bodies and downloads as bytes", async () => {
    const doc = (await fetch(`${base}/openapi.json`).then((r) => r.json())) as { paths: Record<string, Record<string, { requestBody?: { content: object }; responses: Record<string, unknown> }>> };
    expect(Object.keys(doc.paths["/storage/v1/parts/{uploadId}/{partNumber}"].put.requestBody!.content)).toEqual(["multipart/form-data", "application/octet-stream"]);
    expect(Object.keys(doc.paths["/storage/v1/blobs/{blob}"].get.responses)).toContain("206");
  });
});
