// The platform's own Connect unary client (createServiceTransport "connect") and server fast
// path (createService) against connect-node's stock client and server, over real h2c sockets:
// each pairing must carry messages, headers, trailers, errors with details, deadlines and
// cancellation alike, and the fast path must leave every other request to connect-node.
import * as http2 from "node:http2";
import * as net from "node:net";
import type { AddressInfo } from "node:net";
import { Code, ConnectError, createClient, type ConnectRouter, type Transport } from "@connectrpc/connect";
import { compressionGzip, connectNodeAdapter, createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { ErrorDetailSchema } from "@signage/contracts/signage/common/v1/error_pb";
import { BlobAccessService } from "@signage/contracts/signage/media/v1/upload_pb";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createService, createServiceTransport, type Service } from "./support/platform.js";
import { memoryLogger } from "./support/memory-logger.js";
import { withConnectUnaryFastPath } from "../src/server/connect-unary-fast-path.js";
import { recordRoutes } from "../src/server/serve-implementation.js";

interface Seen {
  text?: string;
  signal?: AbortSignal;
  header?: string | null;
  protocol?: string;
}

/** Public echoes with a response header and trailer; it holds while `hold` is pending; ViewerRead fails as the platform's services do. */
function registerEcho(seen: Seen, hold: { current?: Promise<void> } = {}) {
  return (router: ConnectRouter) =>
    router.service(ProbeService, {
      async public(req, ctx) {
        seen.text = req.text;
        seen.signal = ctx.signal;
        seen.header = ctx.requestHeader.get("x-note");
        seen.protocol = ctx.protocolName;
        await hold.current;
        ctx.responseHeader.set("x-answer", "42");
        ctx.responseTrailer.set("x-trailer", "done");
        return { text: `echo: ${req.text}` };
      },
      viewerRead(_req, ctx) {
        ctx.responseHeader.set("x-set-before-failing", "header");
        ctx.responseTrailer.set("x-trailer-before-failing", "trailer");
        const error = new ConnectError("file 7 not found", Code.NotFound, { "x-failure": "yes" }, [{ desc: ErrorDetailSchema, value: { key: "file.error.notFound", details: { id: "7" } } }]);
        throw error;
      },
      ownerWrite() {
        throw new TypeError("database password is hunter2");
      },
    });
}

/** connect-node's own handler on a bare h2c server: the reference the platform's server must match. */
function stockServer(routes: (router: ConnectRouter) => void) {
  return listenH2(connectNodeAdapter({ routes }));
}

/** A bare h2c server on port 0; close() drops its clients' connections. */
async function listenH2(handler: (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = http2.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (s) => sessions.add(s));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sessions) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A TCP proxy whose open connections can be frozen: bytes stop flowing both ways, nothing is closed (a vanished peer). */
async function blackHoleProxy(targetPort: string): Promise<{ url: string; connections(): number; freeze(): void; close(): Promise<void> }> {
  const pairs: net.Socket[][] = [];
  const sockets: net.Socket[] = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(targetPort), "127.0.0.1");
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    pairs.push([client, upstream]);
    sockets.push(client, upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => sockets.length / 2,
    freeze() {
      for (const [client, upstream] of pairs.splice(0)) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const platformClient = (url: string) => createServiceTransport({ baseUrl: url, protocol: "connect" });
const stockClient = (url: string) => createConnectTransport({ baseUrl: url, httpVersion: "2", useBinaryFormat: true });

describe.each([
  ["platform client -> platform server", platformClient, "platform"],
  ["platform client -> connect-node server", platformClient, "stock"],
  ["connect-node client -> platform server", stockClient, "platform"],
] as const)("Connect unary on the wire: %s", (_name, makeClient, serverKind) => {
  const seen: Seen = {};
  let url: string;
  let close: () => Promise<void>;
  let transport: Transport;

  beforeAll(async () => {
    if (serverKind === "stock") {
      ({ url, close } = await stockServer(registerEcho(seen)));
    } else {
      const service: Service = createService({ name: "echo", logger: memoryLogger().logger, register: registerEcho(seen) });
      ({ url } = await service.listen({ host: "127.0.0.1", port: 0 }));
      close = () => service.close({ timeoutMs: 1000 });
    }
    transport = makeClient(url);
  });
  afterAll(() => close());

  it("carries the message, request headers, response headers and trailers", async () => {
    const probe = createClient(ProbeService, transport);
    let header: Headers | undefined;
    let trailer: Headers | undefined;
    const res = await probe.public({ text: "hi" }, { headers: { "x-note": "from caller" }, onHeader: (h) => (header = h), onTrailer: (t) => (trailer = t) });
    expect(res.text).toBe("echo: hi");
    expect(seen.header).toBe("from caller");
    expect(seen.protocol).toBe("connect");
    expect(header?.get("x-answer")).toBe("42");
    expect(trailer?.get("x-trailer")).toBe("done");
  });

  it("ends the handler's signal with the call, as connect's handlers do (work left running stops)", async () => {
    const probe = createClient(ProbeService, transport);
    await probe.public({ text: "ended" });
    await expect.poll(() => seen.signal?.aborted).toBe(true);
  });

  it("carries an error's code, message, metadata and typed details", async () => {
    const probe = createClient(ProbeService, transport);
    const error = await probe.viewerRead({}).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    expect(error?.code).toBe(Code.NotFound);
    expect(error?.rawMessage).toBe("file 7 not found");
    expect(error?.metadata.get("x-failure")).toBe("yes");
    expect(error?.metadata.get("x-set-before-failing")).toBe("header");
    expect(error?.metadata.get("x-trailer-before-failing")).toBe("trailer");
    expect(error?.findDetails(ErrorDetailSchema)[0]).toMatchObject({ key: "file.error.notFound", details: { id: "7" } });
  });

  it("keeps a non-ConnectError's message inside the service (Internal 'internal error')", async () => {
    const probe = createClient(ProbeService, transport);
    await expect(probe.ownerWrite({})).rejects.toMatchObject({ code: Code.Internal, rawMessage: "internal error" });
  });
});

describe("the platform's Connect unary client", () => {
  const seen: Seen = {};
  const hold: { current?: Promise<void> } = {};
  let service: Service;
  let url: string;

  beforeAll(async () => {
    service = createService({ name: "echo", logger: memoryLogger().logger, register: registerEcho(seen, hold) });
    ({ url } = await service.listen({ host: "127.0.0.1", port: 0 }));
  });
  afterAll(() => service.close({ timeoutMs: 1000 }));
  afterEach(() => {
    hold.current = undefined;
  });

  it("fails with DeadlineExceeded when the timeout passes, and the handler's signal aborts (connect-timeout-ms)", async () => {
    hold.current = new Promise(() => {});
    const probe = createClient(ProbeService, platformClient(url));
    await expect(probe.public({ text: "slow" }, { timeoutMs: 50 })).rejects.toMatchObject({ code: Code.DeadlineExceeded });
    await expect.poll(() => seen.signal?.aborted).toBe(true);
  });

  it("aborts the handler's signal with DeadlineExceeded at connect-timeout-ms, without the client resetting", async () => {
    hold.current = new Promise(() => {});
    const session = http2.connect(url);
    try {
      const stream = session.request({ ":method": "POST", ":path": "/signage.testing.v1.ProbeService/Public", "content-type": "application/proto", "connect-timeout-ms": "50" });
      stream.on("error", () => {});
      stream.end(Buffer.from([0x0a, 0x03, 0x72, 0x61, 0x77]));
      await expect.poll(() => seen.text).toBe("raw");
      await expect.poll(() => (seen.signal?.reason as ConnectError | undefined)?.code).toBe(Code.DeadlineExceeded);
    } finally {
      session.destroy();
    }
  });

  it("applies defaultTimeoutMs to calls that set none", async () => {
    hold.current = new Promise(() => {});
    const probe = createClient(ProbeService, createServiceTransport({ baseUrl: url, protocol: "connect", defaultTimeoutMs: 50 }));
    await expect(probe.public({ text: "slow" })).rejects.toMatchObject({ code: Code.DeadlineExceeded });
  });

  it("fails with Canceled when the caller aborts, and the handler's signal aborts (stream reset)", async () => {
    hold.current = new Promise(() => {});
    const probe = createClient(ProbeService, platformClient(url));
    const caller = new AbortController();
    const call = probe.public({ text: "cancel me" }, { signal: caller.signal });
    await expect.poll(() => seen.text).toBe("cancel me");
    expect(seen.signal?.aborted).toBe(false);
    caller.abort();
    await expect(call).rejects.toMatchObject({ code: Code.Canceled });
    await expect.poll(() => seen.signal?.aborted).toBe(true);
  });

  it("answers Unavailable when nothing listens, and reconnects once the peer is back on its port", async () => {
    const other = createService({ name: "echo", logger: memoryLogger().logger, register: registerEcho({}) });
    const { port, url: otherUrl } = await other.listen({ host: "127.0.0.1", port: 0 });
    const probe = createClient(ProbeService, platformClient(otherUrl));
    expect((await probe.public({ text: "one" })).text).toBe("echo: one");
    await other.close({ timeoutMs: 1000 });
    await expect(probe.public({ text: "two" })).rejects.toMatchObject({ code: Code.Unavailable });
    const again = createService({ name: "echo", logger: memoryLogger().logger, register: registerEcho({}) });
    await again.listen({ host: "127.0.0.1", port });
    try {
      expect((await probe.public({ text: "three" })).text).toBe("echo: three");
    } finally {
      await again.close({ timeoutMs: 1000 });
    }
  });

  it("fails a waiting call with Unavailable when the peer stops answering PINGs, then reconnects", async () => {
    const proxy = await blackHoleProxy(new URL(url).port);
    try {
      const probe = createClient(ProbeService, createServiceTransport({ baseUrl: proxy.url, protocol: "connect", keepAlive: { pingIntervalMs: 100, pingTimeoutMs: 200 } }));
      expect((await probe.public({ text: "before" })).text).toBe("echo: before");
      proxy.freeze();
      const started = Date.now();
      await expect(probe.public({ text: "lost" })).rejects.toMatchObject({ code: Code.Unavailable });
      expect(Date.now() - started).toBeLessThan(2000);
      expect((await probe.public({ text: "after" })).text).toBe("echo: after");
    } finally {
      await proxy.close();
    }
  });

  it("moves to a new connection when the server ages one out (GOAWAY): the call in flight finishes, none fails", async () => {
    const seenHere: Seen = {};
    const holdHere: { current?: Promise<void> } = {};
    const aging = createService({ name: "echo", logger: memoryLogger().logger, register: registerEcho(seenHere, holdHere), maxConnectionAgeMs: 150 });
    const { url: agingUrl } = await aging.listen({ host: "127.0.0.1", port: 0 });
    const proxy = await blackHoleProxy(new URL(agingUrl).port);
    try {
      const probe = createClient(ProbeService, platformClient(proxy.url));
      holdHere.current = new Promise((resolve) => setTimeout(resolve, 400));
      const slow = probe.public({ text: "slow" });
      await expect.poll(() => seenHere.text).toBe("slow");
      holdHere.current = undefined;
      for (let i = 0; i < 12; i++) {
        expect((await probe.public({ text: String(i) })).text).toBe(`echo: ${i}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await slow).text).toBe("echo: slow");
      expect(proxy.connections()).toBeGreaterThanOrEqual(3);
    } finally {
      await proxy.close();
      await aging.close({ timeoutMs: 1000 });
    }
  });

  it("carries many calls at once on one connection", async () => {
    const proxy = await blackHoleProxy(new URL(url).port);
    try {
      const probe = createClient(ProbeService, platformClient(proxy.url));
      const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => probe.public({ text: String(i) })));
      expect(answers.map((a) => a.text)).toEqual(Array.from({ length: 200 }, (_, i) => `echo: ${i}`));
      expect(proxy.connections()).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it("refuses a message it cannot serialize with Internal, before opening any stream", async () => {
    const proxy = await blackHoleProxy(new URL(url).port);
    try {
      const probe = createClient(ProbeService, platformClient(proxy.url));
      await expect(probe.viewerRead({ customerId: "abc" as unknown as bigint })).rejects.toMatchObject({ code: Code.Internal, rawMessage: expect.stringMatching(/^serialize binary: /) });
      expect(proxy.connections()).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it.each([
    ["sends it once more on a fresh stream and succeeds", 1, "ok"],
    ["sends it once more, then answers Unavailable", Infinity, Code.Unavailable],
  ] as const)("when the peer refuses a request unprocessed (REFUSED_STREAM, e.g. draining for a deploy), %s", async (_name, refusals, outcome) => {
    let requests = 0;
    const { url: refusingUrl, close } = await listenH2((req, res) => {
      if (++requests <= refusals) return req.stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/proto" });
        res.end(Buffer.from([0x0a, 0x02, 0x6f, 0x6b])); // {text: "ok"}
      });
    });
    try {
      const call = createClient(ProbeService, platformClient(refusingUrl)).public({ text: "x" });
      if (outcome === "ok") expect((await call).text).toBe("ok");
      else await expect(call).rejects.toMatchObject({ code: outcome });
      expect(requests).toBe(2);
    } finally {
      await close();
    }
  });

  it.each([
    ["the connection drops before any answer", "drop-before", Code.Unavailable],
    ["the peer closes the stream (NO_ERROR) before any answer", "close-before", Code.Unavailable],
    ["the connection drops after the answer's headers", "drop-after-headers", Code.Unavailable],
    ["the peer ends the stream early (NO_ERROR) with a body shorter than promised", "short-body", Code.Internal],
  ] as const)("never takes a cut-off answer for a whole one: %s", async (_name, behaviour, code) => {
    const { url: brokenUrl, close } = await listenH2((req, res) => {
      if (behaviour === "drop-before") return req.stream.session?.destroy();
      if (behaviour === "close-before") return req.stream.close(http2.constants.NGHTTP2_NO_ERROR);
      res.writeHead(200, { "content-type": "application/proto", "content-length": 13 });
      if (behaviour === "drop-after-headers") return void setTimeout(() => req.stream.session?.destroy(), 20);
      // A whole message ({text: "h"}) as far as it goes: only the promised length tells it is cut.
      res.write(Buffer.from([0x0a, 0x01, 0x68]));
      setTimeout(() => req.stream.close(http2.constants.NGHTTP2_NO_ERROR), 20);
    });
    try {
      await expect(createClient(ProbeService, platformClient(brokenUrl)).public({ text: "x" })).rejects.toMatchObject({ code });
    } finally {
      await close();
    }
  });
});

describe("the server's fast path", () => {
  let service: Service;
  let url: string;

  beforeAll(async () => {
    service = createService({ name: "echo", logger: memoryLogger().logger, register: registerEcho({}) });
    ({ url } = await service.listen({ host: "127.0.0.1", port: 0 }));
  });
  afterAll(() => service.close({ timeoutMs: 1000 }));

  /** One raw HTTP/2 request, as a non-connect client would send it. */
  async function post(path: string, headers: http2.OutgoingHttpHeaders, body: Uint8Array): Promise<{ status: number; headers: http2.IncomingHttpHeaders; body: string }> {
    const session = http2.connect(url);
    try {
      return await new Promise((resolve, reject) => {
        const stream = session.request({ ":method": "POST", ":path": path, ...headers });
        let responseHeaders: http2.IncomingHttpHeaders = {};
        const chunks: Buffer[] = [];
        stream.on("response", (h) => (responseHeaders = h));
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => resolve({ status: Number(responseHeaders[":status"]), headers: responseHeaders, body: Buffer.concat(chunks).toString() }));
        stream.on("error", reject);
        stream.end(body);
      });
    } finally {
      session.close();
    }
  }

  it("answers a body it cannot parse as connect does: 500, code internal, JSON error", async () => {
    const res = await post("/signage.testing.v1.ProbeService/Public", { "content-type": "application/proto" }, new Uint8Array([0xff, 0xff, 0xff]));
    expect(res.status).toBe(500);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(res.body)).toMatchObject({ code: "internal", message: expect.stringMatching(/^parse binary: /) });
  });

  it("refuses a malformed connect-timeout-ms with invalid_argument", async () => {
    const res = await post("/signage.testing.v1.ProbeService/Public", { "content-type": "application/proto", "connect-timeout-ms": "soon" }, new Uint8Array());
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: "invalid_argument" });
  });

  // connect-node would read up to 4 GiB per message: a service caps what one call may make it
  // buffer, on the fast path and on connect-node's (gRPC) alike, and keeps serving.
  it("refuses a request message over readMaxBytes with resource_exhausted on Connect and gRPC, and keeps serving", async () => {
    const small = createService({ name: "small", logger: memoryLogger().logger, register: registerEcho({}), readMaxBytes: 1024 });
    const { url: smallUrl } = await small.listen({ host: "127.0.0.1", port: 0 });
    try {
      const big = "x".repeat(5000);
      await expect(createClient(ProbeService, platformClient(smallUrl)).public({ text: big })).rejects.toMatchObject({ code: Code.ResourceExhausted, rawMessage: expect.stringContaining("readMaxBytes 1024") });
      await expect(createClient(ProbeService, createGrpcTransport({ baseUrl: smallUrl })).public({ text: big })).rejects.toMatchObject({ code: Code.ResourceExhausted });
      expect((await createClient(ProbeService, platformClient(smallUrl)).public({ text: "small" })).text).toBe("echo: small");
    } finally {
      await small.close({ timeoutMs: 1000 });
    }
  });

  it("ends a call whose answer node refuses to write (a connection-specific header in HTTP/2) in an error, and keeps serving", async () => {
    const odd = createService({
      name: "odd",
      logger: memoryLogger().logger,
      register: (router) =>
        router.service(ProbeService, {
          public(req, ctx) {
            if (req.text === "bad") ctx.responseHeader.set("upgrade", "h2c");
            return { text: req.text };
          },
        }),
    });
    const { url: oddUrl } = await odd.listen({ host: "127.0.0.1", port: 0 });
    try {
      const probe = createClient(ProbeService, platformClient(oddUrl));
      await expect(probe.public({ text: "bad" })).rejects.toMatchObject({ code: Code.Internal });
      expect((await probe.public({ text: "good" })).text).toBe("good");
    } finally {
      await odd.close({ timeoutMs: 1000 });
    }
  });

  it("streams through connect-node on both ends: createServiceTransport('connect') and createService", async () => {
    const streaming = createService({
      name: "blobs",
      logger: memoryLogger().logger,
      register: (router) =>
        router.service(BlobAccessService, {
          async *getPresignedBlob(req) {
            for (const piece of req.blob.split(",")) yield { body: { kind: { case: "chunk", value: new TextEncoder().encode(piece) } } };
          },
        }),
    });
    const { url: blobUrl } = await streaming.listen({ host: "127.0.0.1", port: 0 });
    try {
      const blobs = createClient(BlobAccessService, platformClient(blobUrl));
      const pieces: string[] = [];
      for await (const r of blobs.getPresignedBlob({ blob: "a,bc,def" })) pieces.push(new TextDecoder().decode(r.body?.kind.value as Uint8Array));
      expect(pieces).toEqual(["a", "bc", "def"]);
    } finally {
      await streaming.close({ timeoutMs: 1000 });
    }
  });

  it("leaves gRPC, Connect JSON, unknown paths and compressed bodies to connect-node", async () => {
    const viaGrpc = createClient(ProbeService, createGrpcTransport({ baseUrl: url }));
    expect((await viaGrpc.public({ text: "grpc" })).text).toBe("echo: grpc");
    const viaJson = createClient(ProbeService, createConnectTransport({ baseUrl: url, httpVersion: "2", useBinaryFormat: false }));
    expect((await viaJson.public({ text: "json" })).text).toBe("echo: json");
    const gzipped = createClient(ProbeService, createConnectTransport({ baseUrl: url, httpVersion: "2", useBinaryFormat: true, sendCompression: compressionGzip, compressMinBytes: 0 }));
    expect((await gzipped.public({ text: "gzip" })).text).toBe("echo: gzip");
    const unknown = await post("/signage.testing.v1.ProbeService/Nope", { "content-type": "application/proto" }, new Uint8Array());
    expect(unknown.status).toBe(404);
  });
});

describe("withConnectUnaryFastPath", () => {
  it("takes binary, uncompressed Connect unary calls over HTTP/2 and hands everything else to the fallback", async () => {
    const fellBack: string[] = [];
    const handler = withConnectUnaryFastPath({
      routes: recordRoutes(registerEcho({})),
      interceptors: [],
      shutdownSignal: new AbortController().signal,
      readMaxBytes: 1024 * 1024,
      fallback: (req, res) => {
        fellBack.push(String(req.headers["content-type"]));
        res.writeHead(418);
        res.end();
      },
    });
    const { url, close } = await listenH2(handler);
    try {
      expect((await createClient(ProbeService, platformClient(url)).public({ text: "fast" })).text).toBe("echo: fast");
      expect((await createClient(ProbeService, stockClient(url)).public({ text: "fast" })).text).toBe("echo: fast");
      expect(fellBack).toEqual([]);
      await expect(createClient(ProbeService, createGrpcTransport({ baseUrl: url })).public({ text: "grpc" })).rejects.toThrow();
      await expect(createClient(ProbeService, createConnectTransport({ baseUrl: url, httpVersion: "2", useBinaryFormat: false })).public({ text: "json" })).rejects.toThrow();
      expect(fellBack).toEqual(["application/grpc+proto", "application/json"]);
    } finally {
      await close();
    }
  });
});
