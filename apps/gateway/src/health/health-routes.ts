// /healthz: the process is alive. /readyz: the gateway takes traffic, and reports what each
// upstream service answers to grpc.health.v1 Check. An upstream that is down does not make the
// gateway unready: that would take every route out of the load balancer, the healthy services'
// too; the routes of the service that is down answer 503 on their own. While the gateway
// drains (SIGTERM) its listener is closed, so the probe fails and the pod leaves the Service.
import type Router from "@koa/router";
import { Health, HealthCheckResponse_ServingStatus } from "@signage/contracts/grpc/health/v1/health_pb";
import type { Upstreams } from "../upstreams.js";

export async function checkUpstreams(upstreams: Upstreams, timeoutMs = 2000): Promise<Record<string, string>> {
  const results = await Promise.all(
    upstreams.all().map(async ({ name, transport }) => {
      try {
        const res = await transport.unary(Health.method.check, undefined, timeoutMs, undefined, { service: "" });
        return [name, HealthCheckResponse_ServingStatus[res.message.status]] as const;
      } catch (e) {
        return [name, `UNAVAILABLE: ${(e as Error).message}`] as const;
      }
    }),
  );
  return Object.fromEntries(results);
}

export function mountHealthRoutes(router: Router, upstreams: Upstreams): void {
  router.get("/healthz", (ctx) => {
    ctx.body = { status: "UP" };
  });
  router.get("/readyz", async (ctx) => {
    const services = await checkUpstreams(upstreams);
    const allServing = Object.values(services).every((s) => s === "SERVING");
    ctx.body = { status: allServing ? "UP" : "DEGRADED", services };
  });
}
