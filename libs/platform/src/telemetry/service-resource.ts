import { randomUUID } from "node:crypto";
// The SDK's own copy of the resources package (a different version is hoisted).
import { resources } from "@opentelemetry/sdk-node";

export interface ServiceResourceOptions {
  /** The code's name for the service. */
  serviceName: string;
  /** The release (SERVICE_VERSION); no `service.version` when unset. */
  serviceVersion?: string;
}

/**
 * The resource the SDK starts from: its defaults (telemetry.sdk.*), then the service's
 * name and version and an id of this process (`service.instance.id`: a fresh UUID, so the
 * replicas, and a pod's restarts, tell apart). The SDK then merges what its detectors find
 * on top (env, process, host): OTEL_RESOURCE_ATTRIBUTES (`deployment.environment.name=prod,
 * service.namespace=signage`...) and OTEL_SERVICE_NAME override these defaults, as the
 * OpenTelemetry specification has it, so an operator can rename or label a deployment
 * without a build. Hence no `serviceName` option to NodeSDK: it would override the env.
 */
export function serviceResource({ serviceName, serviceVersion }: ServiceResourceOptions): resources.Resource {
  return resources.defaultResource().merge(
    resources.resourceFromAttributes({
      "service.name": serviceName,
      "service.instance.id": randomUUID(),
      ...(serviceVersion ? { "service.version": serviceVersion } : {}),
    }),
  );
}
