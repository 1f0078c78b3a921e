// GATEWAY_IDLE_TIMEOUT_MS cuts a connection with no bytes either way: a client that stalls
// mid-body. Once an upload's body is all in, the silence is the service's (a package checked
// and stored, S3 completing): the connection waits for the answer however long it takes.
import { createRouterTransport, type ConnectRouter } from "@connectrpc/connect";
import { BlobAccessService } from "@signage/contracts/signage/media/v1/upload_pb";
import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyServerTimeouts, createGateway, upstreamsByPackage } from "../src/index.js";
import { allFiles } from "@signage/contracts";
import type { Server } from "node:http";

const IDLE_MS = 300;
const ANSWER_AFTER_MS = 3 * IDLE_MS;

function register(router: ConnectRouter) {
  router.service(BlobAccessService, {
    async putPresignedPart(requests) {
      let bytes = 0;
      for await (const req of requests) if (req.body?.kind.case === "chunk") bytes += req.body.kind.value.length;
      await new Promise((r) => setTimeout(r, ANSWER_AFTER_MS));
      return { success: true, uploadedSize: BigInt(bytes) };
    },
    async *getPresignedBlob() {},
  });
}

let server: Server;
let port: number;
beforeAll(async () => {
  const transport = createRouterTransport(register);
  const upstreams = upstreamsByPackage({ core: transport, media: transport, integration: transport, reporting: transport, licensing: transport });
  const { app } = createGateway({ files: allFiles, upstreams, logger: { info() {}, warn() {}, error() {} } });
  server = app.listen(0, "127.0.0.1");
  applyServerTimeouts(server, { keepAliveTimeoutMs: 5_000, headersTimeoutMs: 6_000, requestTimeoutMs: 0, idleTimeoutMs: IDLE_MS });
  await new Promise((r) => server.once("listening", r));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** PUT of a raw part; `stallMs` > 0 sends half the body, waits, then the rest. */
function putPart(body: Buffer, stallMs = 0, agent?: Agent): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const req = request({ agent, port, host: "127.0.0.1", method: "PUT", path: "/storage/v1/parts/up-1/1?expires=1&signature=s", headers: { "content-type": "application/octet-stream", "content-length": body.length } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode }));
    });
    req.on("error", (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
    if (!stallMs) return void req.end(body);
    req.write(body.subarray(0, body.length / 2));
    setTimeout(() => req.end(body.subarray(body.length / 2)), stallMs);
  });
}

describe("the gateway's idle timeout and uploads", () => {
  it("lets an upload wait for the service's answer after its last byte, longer than the idle timeout", async () => {
    expect(await putPart(Buffer.alloc(64 * 1024, 1))).toEqual({ status: 200 });
  });

  it("still cuts a client that stalls mid-body, also on a connection that waited for an answer before", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await putPart(Buffer.alloc(64 * 1024, 1), 0, agent)).toEqual({ status: 200 });
      const outcome = await putPart(Buffer.alloc(64 * 1024, 1), 3 * IDLE_MS, agent);
      expect(outcome.status).toBeUndefined();
      expect(outcome.error).toBeDefined();
    } finally {
      agent.destroy();
    }
  });
});
