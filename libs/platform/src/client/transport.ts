import { createRouterTransport, type Interceptor, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import type { Routes } from "../server/create-service.js";
import { createConnectUnaryTransport } from "./connect-unary-transport.js";
import { createDirectTransport } from "./direct-transport.js";
import type { KeepAliveOptions } from "./h2-connection.js";

export interface ServiceTransportOptions {
  /** e.g. "http://core:50051" (cleartext HTTP/2 with prior knowledge). */
  baseUrl: string;
  /**
   * Wire protocol; both run over h2c against createService servers. "connect" sends unary
   * calls through createConnectUnaryTransport and streams through connect-node.
   */
  protocol?: "grpc" | "connect";
  /** Client-side interceptors (tracing, auth propagation...). */
  interceptors?: Interceptor[];
  /** Deadline applied to calls that don't set their own timeoutMs. */
  defaultTimeoutMs?: number;
  /** "connect" unary calls: PING cadence that detects a vanished peer (default 10 s / 10 s). */
  keepAlive?: KeepAliveOptions;
}

/** Transport for calling another service over the network (cluster mode). */
export function createServiceTransport({
  baseUrl,
  protocol = "grpc",
  interceptors = [],
  defaultTimeoutMs,
  keepAlive,
}: ServiceTransportOptions): Transport {
  const common = { baseUrl, httpVersion: "2" as const, interceptors, defaultTimeoutMs };
  if (protocol === "grpc") return createGrpcTransport(common);
  const streaming = createConnectTransport({ ...common, useBinaryFormat: true });
  return createConnectUnaryTransport({ baseUrl, interceptors, defaultTimeoutMs, streaming, keepAlive });
}

export interface InMemoryTransportOptions {
  /** Server-side interceptors, normally `service.interceptors`. */
  interceptors?: readonly Interceptor[];
  /** Client-side interceptors, as the caller would use over the network. */
  clientInterceptors?: Interceptor[];
  /**
   * "direct" (default): implementations called in-process, messages handed over by
   * reference (createDirectTransport). "wire": connect's createRouterTransport, which
   * serializes every message as the network would (for tests that want the wire's coercions).
   */
  mode?: "direct" | "wire";
}

/**
 * Transport that runs a service's routes in-process (embedded mode, tests):
 * same handlers and interceptors as over the network, no sockets.
 */
export function createInMemoryTransport(routes: Routes, options: InMemoryTransportOptions = {}): Transport {
  if (options.mode !== "wire") return createDirectTransport(routes, options);
  return createRouterTransport(routes, {
    router: { interceptors: [...(options.interceptors ?? [])] },
    transport: { interceptors: options.clientInterceptors ?? [] },
  });
}
