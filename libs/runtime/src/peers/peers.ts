// How one service reaches another over RPC. The same handler code runs with
// in-memory transports (embedded composition, tests) or gRPC/Connect over the
// network (cluster), so modules only ever ask for a peer by name.
import { createClient, type CallOptions, type Client, type HandlerContext, type Interceptor, type Transport } from "@connectrpc/connect";
import type { DescService } from "@bufbuild/protobuf";
import { createServiceTransport } from "@signage/platform";
import type { ServiceName } from "../service-module.js";

export interface Peers {
  /** Transport to the named service; throws when the composition has none. */
  transport(peer: ServiceName): Transport;
  /** A typed client of `service` on the named peer. */
  client<S extends DescService>(service: S, peer: ServiceName): Client<S>;
}

export function createPeers(resolve: (peer: ServiceName) => Transport | undefined): Peers {
  const clients = new Map<string, unknown>();
  const transport = (peer: ServiceName) => {
    const found = resolve(peer);
    if (!found) throw new Error(`no transport to peer service '${peer}' in this composition`);
    return found;
  };
  return {
    transport,
    client<S extends DescService>(service: S, peer: ServiceName): Client<S> {
      const key = `${peer}/${service.typeName}`;
      let client = clients.get(key) as Client<S> | undefined;
      if (!client) clients.set(key, (client = createClient(service, transport(peer))));
      return client;
    },
  };
}

/** Peers whose transports are bound after every module started (embedded composition, tests). */
export function createLatePeers(): { peers: Peers; bind(transports: Partial<Record<ServiceName, Transport>>): void } {
  let bound: Partial<Record<ServiceName, Transport>> = {};
  return {
    peers: createPeers((peer) => bound[peer]),
    bind(transports) {
      bound = { ...bound, ...transports };
    },
  };
}

const PEER_NAMES: readonly ServiceName[] = ["core", "media", "integration", "reporting", "licensing"];

/** Cluster composition: `<SERVICE>_URL` (e.g. CORE_URL=http://core:50051) per peer, Connect binary over h2c. */
export function peersFromEnv(env: Record<string, string | undefined>, interceptors: Interceptor[] = []): Peers {
  const transports = new Map<ServiceName, Transport>();
  for (const peer of PEER_NAMES) {
    const url = env[`${peer.toUpperCase()}_URL`];
    if (url) transports.set(peer, createServiceTransport({ baseUrl: url, protocol: "connect", interceptors }));
  }
  return createPeers((peer) => transports.get(peer));
}

/**
 * Call options for a peer call made on behalf of the current caller: the same
 * bearer token (every service authenticates every call itself) and the same
 * cancellation.
 */
export function onBehalfOf(ctx: HandlerContext): CallOptions {
  const headers: Record<string, string> = {};
  const authorization = ctx.requestHeader.get("authorization");
  if (authorization) headers.authorization = authorization;
  return { headers, signal: ctx.signal };
}
