// A minimal OTLP/HTTP endpoint for tests: keeps every exported payload. The
// payload is protobuf; instrumentation scope names and span names appear in it
// as plain UTF-8, which is all the tests look for.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface OtlpReceiver {
  url: string;
  /** Every payload received so far, as latin1 text. */
  received(): string;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const payloads: Buffer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      payloads.push(Buffer.concat(chunks));
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => Buffer.concat(payloads).toString("latin1"),
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
