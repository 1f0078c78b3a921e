import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus } from "@signage/contracts/grpc/health/v1/health_pb";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { describe, expect, it } from "vitest";
import { LIVENESS_SERVICE, createInMemoryTransport, createService, type Interceptor } from "./support/platform.js";
import { registerProbe } from "./support/probe.js";
import { memoryLogger } from "./support/memory-logger.js";

describe("service routes over createRouterTransport", () => {
  it("serves the registered service and health", async () => {
    let ready = true;
    const service = createService({
      name: "probe",
      logger: memoryLogger().logger,
      register: registerProbe(),
      readiness: () => ready,
    });
    const transport = createInMemoryTransport(service.routes, { interceptors: service.interceptors });
    const probe = createClient(ProbeService, transport);
    const health = createClient(Health, transport);

    expect((await probe.public({ text: "hi" })).text).toBe("echo: hi");
    await expect(probe.unannotated({})).rejects.toMatchObject({ code: Code.PermissionDenied });
    // Methods the implementation leaves out answer Unimplemented.
    await expect(probe.ownerWrite({})).rejects.toMatchObject({ code: Code.Unimplemented });

    expect((await health.check({ service: "" })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    expect((await health.check({ service: "signage.testing.v1.ProbeService" })).status).toBe(
      HealthCheckResponse_ServingStatus.SERVING,
    );
    ready = false;
    expect((await health.check({ service: "" })).status).toBe(HealthCheckResponse_ServingStatus.NOT_SERVING);
    // Liveness ignores readiness: a DB outage must not get the pod restarted.
    expect((await health.check({ service: LIVENESS_SERVICE })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    const unknown = await health.check({ service: "nope.Service" }).catch((e: unknown) => e);
    expect(ConnectError.from(unknown).code).toBe(Code.NotFound);
  });

  it("reports NOT_SERVING once close() has started", async () => {
    const service = createService({ name: "probe", logger: memoryLogger().logger, register: registerProbe() });
    const health = createClient(Health, createInMemoryTransport(service.routes));
    expect((await health.check({})).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    await service.close();
    expect((await health.check({})).status).toBe(HealthCheckResponse_ServingStatus.NOT_SERVING);
  });

  it("answers NOT_SERVING when readiness throws, and logs it", async () => {
    const { logger, lines } = memoryLogger();
    const service = createService({
      name: "probe",
      logger,
      register: registerProbe(),
      readiness: async () => {
        throw new Error("db down");
      },
    });
    const health = createClient(Health, createInMemoryTransport(service.routes));
    expect((await health.check({})).status).toBe(HealthCheckResponse_ServingStatus.NOT_SERVING);
    expect(lines().some((l) => l.msg === "readiness check failed")).toBe(true);
  });

  it("logs unexpected handler errors, not deliberate ConnectErrors", async () => {
    const { logger, lines } = memoryLogger();
    const service = createService({
      name: "probe",
      logger,
      register: (router) =>
        router.service(ProbeService, {
          public() {
            throw new TypeError("bug");
          },
        }),
    });
    const probe = createClient(ProbeService, createInMemoryTransport(service.routes, { interceptors: service.interceptors }));
    await expect(probe.public({})).rejects.toMatchObject({ code: Code.Internal });
    await expect(probe.viewerRead({})).rejects.toMatchObject({ code: Code.Unimplemented });
    const errors = lines().filter((l) => l.level === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: "rpc handler failed", rpc: "signage.testing.v1.ProbeService/Public" });
    expect(errors[0].err).toMatchObject({ type: "TypeError", message: "bug" });
  });

  it("runs the service's interceptors in memory too", async () => {
    const seen: string[] = [];
    const record: Interceptor = (next) => async (req) => {
      seen.push(`${req.service.typeName}/${req.method.name}`);
      return next(req);
    };
    const service = createService({
      name: "probe",
      logger: memoryLogger().logger,
      register: registerProbe(),
      interceptors: [record],
    });
    const probe = createClient(ProbeService, createInMemoryTransport(service.routes, { interceptors: service.interceptors }));
    await probe.public({ text: "x" });
    expect(seen).toEqual(["signage.testing.v1.ProbeService/Public"]);
  });
});
