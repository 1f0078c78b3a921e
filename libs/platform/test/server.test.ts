import { Code, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-node";
import { Health, HealthCheckResponse_ServingStatus } from "@signage/contracts/grpc/health/v1/health_pb";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createService, createServiceTransport, type Service } from "./support/platform.js";
import { grpcJsHealthClient } from "./support/grpc-js-health.js";
import { memoryLogger } from "./support/memory-logger.js";
import { registerProbe } from "./support/probe.js";

describe("createService on a real port", () => {
  let ready = true;
  let service: Service;
  let url: string;
  let port: number;

  beforeAll(async () => {
    service = createService({
      name: "probe",
      logger: memoryLogger().logger,
      register: registerProbe(),
      readiness: () => ready,
    });
    ({ url, port } = await service.listen({ host: "127.0.0.1", port: 0 }));
  });
  afterAll(() => service.close({ timeoutMs: 1000 }));

  it.each([
    ["connect over h2", () => createServiceTransport({ baseUrl: url, protocol: "connect" })],
    ["grpc over h2", () => createServiceTransport({ baseUrl: url, protocol: "grpc" })],
    ["grpc-web over h2", () => createGrpcWebTransport({ baseUrl: url, httpVersion: "2" })],
    ["grpc-web over HTTP/1.1", () => createGrpcWebTransport({ baseUrl: url, httpVersion: "1.1" })],
  ])("%s calls ProbeService.Public", async (_name, transport) => {
    const probe = createClient(ProbeService, transport());
    expect((await probe.public({ text: "hi" })).text).toBe("echo: hi");
    await expect(probe.unannotated({})).rejects.toMatchObject({ code: Code.PermissionDenied });
  });

  it("answers Connect JSON over plain HTTP/1.1 (curl)", async () => {
    const res = await fetch(`${url}/signage.testing.v1.ProbeService/Public`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "curl" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ text: "echo: curl" });
    expect((await fetch(`${url}/nope`, { method: "POST" })).status).toBe(404);
  });

  it("serves grpc.health.v1.Health/Check to @grpc/grpc-js (Kubernetes-style probe)", async () => {
    const health = grpcJsHealthClient(`127.0.0.1:${port}`);
    try {
      expect((await health.check("")).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
      expect((await health.check("signage.testing.v1.ProbeService")).status).toBe(
        HealthCheckResponse_ServingStatus.SERVING,
      );
      ready = false;
      expect((await health.check("")).status).toBe(HealthCheckResponse_ServingStatus.NOT_SERVING);
      await expect(health.check("unknown.Service")).rejects.toMatchObject({ code: 5 /* NOT_FOUND */ });
    } finally {
      ready = true;
      health.close();
    }
  });

  it("serves health to a connect-node gRPC client", async () => {
    const health = createClient(Health, createServiceTransport({ baseUrl: url }));
    expect((await health.check({})).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
  });
});
