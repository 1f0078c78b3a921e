import type { DescService } from "@bufbuild/protobuf";
import type { Transport } from "@connectrpc/connect";

/** How the gateway reaches the service that owns an RPC (gRPC over the network, or in memory). */
export interface Upstreams {
  transportFor(service: DescService): Transport;
  /** One transport per backing service process, for readiness checks. */
  all(): Array<{ name: string; transport: Transport }>;
}

/** Upstreams keyed by proto package (`signage.core.v1` -> core). */
export function upstreamsByPackage(byName: Record<string, Transport>): Upstreams {
  return {
    transportFor(service) {
      const name = service.typeName.split(".")[1];
      const transport = byName[name];
      if (!transport) throw new Error(`No upstream configured for ${service.typeName} (service '${name}')`);
      return transport;
    },
    all: () => Object.entries(byName).map(([name, transport]) => ({ name, transport })),
  };
}
