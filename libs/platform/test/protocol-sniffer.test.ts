import * as http from "node:http";
import * as http2 from "node:http2";
import * as net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createSniffingServer } from "../src/server/protocol-sniffer.js";

const reply = (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) =>
  res.end(`HTTP/${req.httpVersion} ${req.method} ${req.url}`);

let tcp: net.Server | undefined;
afterEach(() => new Promise<void>((r) => (tcp ? tcp.close(() => r()) : r())));

async function start(prefaceTimeoutMs?: number): Promise<number> {
  tcp = createSniffingServer({ http1: http.createServer(reply), http2: http2.createServer(reply), prefaceTimeoutMs });
  await new Promise<void>((r) => tcp!.listen(0, "127.0.0.1", r));
  return (tcp.address() as net.AddressInfo).port;
}

/** Writes `parts` with pauses in between, returns everything read until close. */
function rawExchange(port: number, parts: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let got = "";
    socket.on("data", (d) => (got += d));
    socket.on("close", () => resolve(got));
    socket.on("error", reject);
    socket.on("connect", async () => {
      for (const part of parts) {
        socket.write(part);
        await new Promise((r) => setTimeout(r, 20));
      }
    });
  });
}

describe("createSniffingServer", () => {
  it("routes HTTP/1.1 even when the first bytes arrive one by one", async () => {
    const port = await start();
    const response = await rawExchange(port, ["P", "O", "ST /a HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"]);
    expect(response).toMatch(/^HTTP\/1\.1 200/);
    expect(response).toContain("HTTP/1.1 POST /a");
  });

  it("routes h2 prior-knowledge connections to the http2 server", async () => {
    const port = await start();
    const session = http2.connect(`http://127.0.0.1:${port}`);
    const body = await new Promise<string>((resolve, reject) => {
      const stream = session.request({ ":path": "/b", ":method": "GET" });
      let data = "";
      stream.on("data", (d) => (data += d));
      stream.on("end", () => resolve(data));
      stream.on("error", reject);
    });
    session.close();
    expect(body).toBe("HTTP/2.0 GET /b");
  });

  it("drops connections that never send a byte", async () => {
    const port = await start(50);
    expect(await rawExchange(port, [])).toBe("");
  });
});
