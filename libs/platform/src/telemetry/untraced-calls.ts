/**
 * Services whose calls get no spans: Kubernetes' gRPC probes and the gateway's
 * /readyz call grpc.health.v1.Health/Check every few seconds per service, and each
 * call would otherwise be a root trace of its own (the gateway's probe request is
 * not traced, so no traceparent reaches the service).
 */
const UNTRACED_SERVICES = new Set(["grpc.health.v1.Health"]);

export function isUntracedCall(req: { readonly service: { readonly typeName: string } }): boolean {
  return UNTRACED_SERVICES.has(req.service.typeName);
}
