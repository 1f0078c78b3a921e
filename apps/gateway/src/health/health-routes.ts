// /healthz: the process is alive. /readyz: every upstream service answers
// grpc.health.v1 Check with SERVING.
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
    const ready = Object.values(services).every((s) => s === "SERVING");
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? "UP" : "DOWN", services };
  });
}
