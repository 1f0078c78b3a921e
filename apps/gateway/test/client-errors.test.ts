// Requests Node's parser refuses before any middleware (headers past its limit, bytes that are not
// HTTP) get the error body every other failure gets (seed 001: the common error body), not a bare status line.
import { connect } from "node:net";
import { maxHeaderSize } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { createRouterTransport } from "@connectrpc/connect";
import { allFiles } from "@signage/contracts";
import { answerClientErrors, createGateway, upstreamsByPackage } from "../src/index.js";

const silent = { info() {}, warn() {}, error() {}, debug() {} };
const transport = createRouterTransport(() => undefined);
const upstreams = upstreamsByPackage({ core: transport, media: transport, integration: transport, reporting: transport, licensing: transport });
const server = createGateway({ files: allFiles, upstreams, logger: silent }).app.listen(0, "127.0.0.1");
answerClientErrors(server);
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

/** Sends raw bytes, returns everything the server wrote before closing. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect((server.address() as { port: number }).port, "127.0.0.1", () => socket.end(request));
    let answer = "";
    socket.on("data", (d) => (answer += d));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

function parse(answer: string) {
  const [head, body] = answer.split("\r\n\r\n");
  return { statusLine: head.split("\r\n")[0], head, body: JSON.parse(body) };
}

describe("requests the HTTP parser refuses", () => {
  it("headers past the limit: 431 with the error body naming the limit", async () => {
    const { statusLine, head, body } = parse(await raw(`GET /api/v2/file?search=${"x".repeat(maxHeaderSize)} HTTP/1.1\r\nHost: a\r\n\r\n`));
    expect(statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(head.toLowerCase()).toContain("content-type: application/json");
    // README: error answers carry no-store, every answer nosniff; these too.
    expect(head.toLowerCase()).toContain("cache-control: no-store");
    expect(head.toLowerCase()).toContain("x-content-type-options: nosniff");
    expect(body).toEqual({ status: 431, error: "Request Header Fields Too Large", key: "request.error.headersTooLarge", message: expect.stringContaining(String(maxHeaderSize)), details: { maxBytes: maxHeaderSize } });
  });

  it("bytes that are not HTTP: 400 with the error body", async () => {
    const { statusLine, body } = parse(await raw("NOT HTTP AT ALL\r\n\r\n"));
    expect(statusLine).toBe("HTTP/1.1 400 Bad Request");
    expect(body).toMatchObject({ status: 400, error: "Bad Request", key: "request.error.malformed" });
  });
});
