import { create, type DescMethod } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createContextValues,
  type Interceptor,
  type MethodImplSpec,
  type StreamRequest,
  type Transport,
  type UnaryRequest,
} from "@connectrpc/connect";
import type { Routes } from "../server/create-service.js";
import { methodPath, normalizeStream, recordRoutes, serveImplementation } from "../server/serve-implementation.js";
import { streamCallSignal, unaryCallSignal } from "./call-signal.js";
import { chain } from "../rpc/interceptor-chain.js";

export interface DirectTransportOptions {
  /** Server-side interceptors, normally `service.interceptors` (first = outermost). */
  interceptors?: readonly Interceptor[];
  /** Client-side interceptors, as the caller would use over the network. */
  clientInterceptors?: readonly Interceptor[];
}

/**
 * Transport that calls a service's implementations in the same process with no
 * serialization, no HTTP emulation and no async-iterable plumbing for unary calls:
 * the embedded composition's hot path. The request still passes the client's and the
 * service's interceptors (tracing, auth, error logging) exactly as over the network,
 * with headers as the only channel between the two sides; messages are handed over
 * by reference, so the caller owns what it sends and what it gets back.
 */
export function createDirectTransport(routes: Routes, options: DirectTransportOptions = {}): Transport {
  const { specs } = recordRoutes(routes);
  const serverInterceptors = options.interceptors ?? [];
  const clientInterceptors = options.clientInterceptors ?? [];

  function specFor(method: DescMethod): MethodImplSpec {
    const spec = specs.get(methodPath(method));
    if (!spec) throw new ConnectError(`${methodPath(method)} is not served here`, Code.Unimplemented);
    return spec;
  }

  function call(method: DescMethod, signal: AbortSignal | undefined, timeoutMs: number | undefined, header: ConstructorParameters<typeof Headers>[0], message: unknown, stream: boolean, contextValues = createContextValues()) {
    const spec = specFor(method);
    const link = stream ? streamCallSignal(signal, timeoutMs) : unaryCallSignal(signal, timeoutMs);
    const request = {
      stream,
      service: method.parent,
      method,
      requestMethod: "POST",
      url: `direct://${methodPath(method)}`,
      signal: link.signal,
      header: new Headers(header),
      contextValues,
      message,
    } as UnaryRequest | StreamRequest;
    return link.settle(chain(serveImplementation(spec, serverInterceptors, { protocolName: "direct", signal: link.signal, timeoutMs }), clientInterceptors)(request));
  }

  return {
    // Signatures from Transport; the results are the methods' own response types.
    unary: (method, signal, timeoutMs, header, input, contextValues) => call(method, signal, timeoutMs, header, create(method.input, input), false, contextValues) as never,
    stream: (method, signal, timeoutMs, header, input, contextValues) => call(method, signal, timeoutMs, header, normalizeStream(method.input, input), true, contextValues) as never,
  };
}
