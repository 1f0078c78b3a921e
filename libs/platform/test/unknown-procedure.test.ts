// A gRPC client calling a service this port does not serve (most often: the right service on the
// wrong port) gets status 12 Unimplemented naming what the port serves, not a bare HTTP 404.
import { Code, ConnectError, createClient, type ConnectRouter, type Transport } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-node";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { StatisticsService } from "@signage/contracts/signage/reporting/v1/statistics_pb";
import { describe, expect, it } from "vitest";
import { createServiceTransport } from "./support/platform.js";
import { listeningService } from "./support/listening-service.js";

function register(router: ConnectRouter) {
  router.service(ProbeService, { public: () => ({}), viewerRead: () => ({ scope: "viewer" }), unannotated: () => ({}) });
}

describe("a procedure this port does not serve", () => {
  const server = listeningService(register);

  const transports: Record<string, () => Transport> = {
    grpc: () => createServiceTransport({ baseUrl: server.url, protocol: "grpc" }),
    connect: () => createServiceTransport({ baseUrl: server.url, protocol: "connect" }),
    "grpc-web": () => createGrpcWebTransport({ baseUrl: server.url, httpVersion: "2" }),
  };

  it.each(Object.keys(transports))("%s: Unimplemented, naming the services of this port", async (protocol) => {
    const client = createClient(StatisticsService, transports[protocol]());
    const err = ConnectError.from(await client.getSystemDashboard({}).catch((e: unknown) => e));
    expect(err.code).toBe(Code.Unimplemented);
    expect(err.rawMessage).toBe("no procedure /signage.reporting.v1.StatisticsService/GetSystemDashboard here: this port serves grpc.health.v1.Health, signage.testing.v1.ProbeService");
  });

  it("the port still answers its own procedures", async () => {
    const probe = createClient(ProbeService, transports.grpc());
    await expect(probe.public({ text: "x" })).resolves.toBeDefined();
  });

  it("echoes the path without its query, cut to 200 characters", async () => {
    const res = await fetch(`${server.url}/${"x".repeat(5000)}/Method?token=secret`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const body = (await res.json()) as { code: string; message: string };
    expect(res.status).toBe(404);
    expect(body.code).toBe("unimplemented");
    expect(body.message).toMatch(/^no procedure \/x{199}… here: this port serves /);
    expect(body.message).not.toContain("secret");
  });
});
