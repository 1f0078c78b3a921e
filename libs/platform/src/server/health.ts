import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus } from "@signage/contracts/grpc/health/v1/health_pb";

export type Readiness = () => Promise<boolean> | boolean;

/**
 * Check({service: "liveness"}) answers SERVING while the process can answer
 * at all, ignoring readiness: a Kubernetes liveness probe must not restart a
 * pod just because its database is briefly down.
 */
export const LIVENESS_SERVICE = "liveness";

export interface HealthOptions {
  /** Fully-qualified names answerable besides "" (the whole server). */
  services: ReadonlySet<string>;
  readiness: Readiness;
  /** Called when readiness() throws; the probe then answers NOT_SERVING. */
  onReadinessError?: (err: unknown) => void;
}

/**
 * grpc.health.v1.Health as the gRPC health spec describes it: "" is the
 * server as a whole, a registered service name gets the same answer, any
 * other name is NotFound; plus LIVENESS_SERVICE. Watch is left Unimplemented
 * (Kubernetes only uses Check).
 */
export function registerHealth(router: ConnectRouter, { services, readiness, onReadinessError }: HealthOptions): void {
  router.service(Health, {
    async check(req) {
      if (req.service === LIVENESS_SERVICE) return { status: HealthCheckResponse_ServingStatus.SERVING };
      if (req.service !== "" && !services.has(req.service)) {
        throw new ConnectError(`unknown service ${req.service}`, Code.NotFound);
      }
      let ready = false;
      try {
        ready = await readiness();
      } catch (err) {
        onReadinessError?.(err);
      }
      return {
        status: ready ? HealthCheckResponse_ServingStatus.SERVING : HealthCheckResponse_ServingStatus.NOT_SERVING,
      };
    },
  });
}
