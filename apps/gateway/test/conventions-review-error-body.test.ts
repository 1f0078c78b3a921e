// In-memory level: the error body a client gets when a service cannot be reached. Document 2 leaves
// "Error body shape in general: not shown."; the gateway "maps errors in one table to
// {"status","error","message","key","details"}" (README) and "Unexpected errors never leak internals"
// (http/error-body.ts). A transport failure used to pass the socket error through as the message:
// `connect ECONNREFUSED 10.0.3.7:50053`, the internal address and port of the service.
import { afterAll, describe, expect, it } from "vitest";
import { Code, ConnectError, createRouterTransport } from "@connectrpc/connect";
import { allFiles } from "@signage/contracts";
import { CustomerService } from "@signage/contracts/signage/core/v1/customer_pb";
import { createServiceTransport } from "@signage/platform";
import { createGateway, upstreamsByPackage } from "../src/index.js";
import { bearerFetch as fetch } from "./support/bearer-fetch.js";

const silent = { info() {}, warn() {}, error() {}, debug() {} };
const servers: { close(cb: () => void): void }[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((ok) => s.close(() => ok())))));

function gatewayOver(transport: ReturnType<typeof createRouterTransport>): string {
  const upstreams = upstreamsByPackage({ core: transport, media: transport, integration: transport, reporting: transport, licensing: transport });
  const server = createGateway({ files: allFiles, upstreams, logger: silent }).app.listen(0);
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe("a service that cannot be reached: 503 error.serviceUnavailable without internal addresses", () => {
  // Port 1 on loopback: nothing listens, the connection is refused at once.
  for (const protocol of ["connect", "grpc"] as const) {
    it(`over ${protocol}: the error body names no host or port`, async () => {
      const base = gatewayOver(createServiceTransport({ baseUrl: "http://127.0.0.1:1", protocol }));
      const res = await fetch(`${base}/api/customer`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as { message: string };
      expect(Object.keys(body).sort()).toEqual(["details", "error", "key", "message", "status"]);
      expect(body).toMatchObject({ status: 503, error: "Service Unavailable", key: "error.serviceUnavailable", details: {} });
      expect(body.message).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|:1\b/);
    });
  }

  it("a service's own 503 keeps its message", async () => {
    const base = gatewayOver(
      createRouterTransport((router) =>
        router.service(CustomerService, {
          listCustomers: () => {
            throw new ConnectError("core is draining", Code.Unavailable);
          },
        }),
      ),
    );
    const res = await fetch(`${base}/api/customer`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ key: "error.serviceUnavailable", message: "core is draining" });
  });
});
