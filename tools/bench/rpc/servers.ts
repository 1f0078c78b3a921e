// The server side of bench:rpc, in its own process (as a peer service would be): the same
// trivial unary method (ProbeService.Public, an echo) behind three servers, and a raw
// node:http2 responder as the floor. Sends the ports over IPC; exits when the parent goes.
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { createLogger, createService } from "@signage/platform";

export interface ServerPorts {
  raw: number;
  connectNode: number;
  platform: number;
}

const echo = (router: ConnectRouter) => router.service(ProbeService, { public: (req) => ({ text: req.text }) });

function listen(server: http2.Http2Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

// The floor: read the body, answer 200 with a fixed protobuf body; no RPC framework at all.
const reply = Buffer.from([0x0a, 0x02, 0x68, 0x69]);
const raw = http2.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/proto", "content-length": reply.length });
    res.end(reply);
  });
});
const platform = createService({ name: "bench-rpc", logger: createLogger({ name: "bench-rpc", level: "silent" }), register: echo });
const ports: ServerPorts = {
  raw: await listen(raw),
  connectNode: await listen(http2.createServer(connectNodeAdapter({ routes: echo }))),
  platform: (await platform.listen({ host: "127.0.0.1", port: 0 })).port,
};
process.send?.(ports);
process.on("disconnect", () => process.exit(0));
