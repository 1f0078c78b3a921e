import { create, type DescMessage, type DescMethod, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createConnectRouter,
  createContextValues,
  createMethodImplSpec,
  createServiceImplSpec,
  type ConnectRouter,
  type HandlerContext,
  type Interceptor,
  type MethodImplSpec,
  type StreamRequest,
  type StreamResponse,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import { chain, type AnyCall } from "../rpc/interceptor-chain.js";
import type { Routes } from "./create-service.js";

export interface ServeOptions {
  /** HandlerContext.protocolName: "direct" in-process, "connect" on the wire. */
  protocolName: string;
  /** The handler's signal: aborts on cancel, deadline or forced shutdown, as the caller links it. */
  signal: AbortSignal;
  timeoutMs: number | undefined;
  /** The handler's response header and trailer; pass them to read what it set even when it fails. */
  responseHeader?: Headers;
  responseTrailer?: Headers;
}

/**
 * The server side of one call without connect's HTTP layer: a fresh handler context, the
 * service's interceptors, the implementation. The request's headers are handed to the
 * implementation as its requestHeader; context values are the server side's own.
 */
export function serveImplementation(spec: MethodImplSpec, interceptors: readonly Interceptor[], options: ServeOptions): AnyCall {
  const { protocolName, signal, timeoutMs } = options;
  return async (incoming) => {
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    const responseHeader = options.responseHeader ?? new Headers();
    const responseTrailer = options.responseTrailer ?? new Headers();
    const implementation: AnyCall = (req) => {
      const ctx: HandlerContext = {
        service: spec.method.parent,
        method: spec.method,
        protocolName,
        requestMethod: "POST",
        url: req.url,
        timeoutMs: () => (deadline === undefined ? undefined : deadline - Date.now()),
        requestHeader: req.header,
        responseHeader,
        responseTrailer,
        signal: req.signal,
        values: req.contextValues,
      };
      return respond(spec, req, ctx, responseHeader, responseTrailer);
    };
    const serverReq = { ...incoming, contextValues: createContextValues(), signal } as UnaryRequest | StreamRequest;
    try {
      return await chain(implementation, interceptors)(serverReq);
    } catch (err) {
      // As connect's handlers do: a non-ConnectError's message stays inside the service.
      throw err instanceof ConnectError ? err : new ConnectError("internal error", Code.Internal, undefined, undefined, err);
    }
  };
}

/** Invokes the implementation with the shapes its kind expects; the response carries the handler's headers. */
async function respond(spec: MethodImplSpec, req: UnaryRequest | StreamRequest, ctx: HandlerContext, header: Headers, trailer: Headers): Promise<UnaryResponse | StreamResponse> {
  const common = { service: spec.method.parent, method: spec.method, header, trailer };
  switch (spec.kind) {
    case "unary": {
      const output = await spec.impl(req.message as MessageShape<DescMessage>, ctx);
      return { ...common, stream: false, message: create(spec.method.output, output) } as UnaryResponse;
    }
    case "server_streaming": {
      const input = await single(req.message as AsyncIterable<MessageShape<DescMessage>>);
      return { ...common, stream: true, message: normalizeStream(spec.method.output, spec.impl(input, ctx)) } as StreamResponse;
    }
    case "client_streaming": {
      const output = await spec.impl(req.message as AsyncIterable<MessageShape<DescMessage>>, ctx);
      return { ...common, stream: true, message: once(create(spec.method.output, output)) } as StreamResponse;
    }
    case "bidi_streaming":
      return { ...common, stream: true, message: normalizeStream(spec.method.output, spec.impl(req.message as AsyncIterable<MessageShape<DescMessage>>, ctx)) } as StreamResponse;
  }
}

export interface RecordedRoutes {
  /** The implementations, by "package.Service/Method". */
  specs: Map<string, MethodImplSpec>;
  /** Methods registered with handler options of their own (limits, interceptors): only connect's router honours those. */
  withOptions: Set<string>;
  /** Registers the same implementation objects on another router, without running `routes` again. */
  replay: Routes;
}

/** Runs `routes` once against a recording router (the real one keeps `handlers` for routes that read it). */
export function recordRoutes(routes: Routes): RecordedRoutes {
  const specs = new Map<string, MethodImplSpec>();
  const withOptions = new Set<string>();
  const registrations: Routes[] = [];
  const router = createConnectRouter();
  const record = (spec: MethodImplSpec, hasOptions: boolean) => {
    specs.set(methodPath(spec.method), spec);
    if (hasOptions) withOptions.add(methodPath(spec.method));
  };
  const recorder: ConnectRouter = {
    get handlers() {
      return router.handlers;
    },
    service(service, implementation, opts) {
      router.service(service, implementation, opts);
      registrations.push((r) => r.service(service, implementation, opts));
      for (const spec of Object.values(createServiceImplSpec(service, implementation).methods)) record(spec, opts !== undefined);
      return recorder;
    },
    rpc(method, implementation, opts) {
      router.rpc(method, implementation, opts);
      registrations.push((r) => r.rpc(method, implementation, opts));
      record(createMethodImplSpec(method, implementation), opts !== undefined);
      return recorder;
    },
  };
  routes(recorder);
  return {
    specs,
    withOptions,
    replay: (target) => {
      for (const register of registrations) register(target);
    },
  };
}

export function methodPath(method: DescMethod): string {
  return `${method.parent.typeName}/${method.name}`;
}

export async function* normalizeStream<Desc extends DescMessage>(schema: Desc, input: AsyncIterable<MessageInitShape<Desc>>): AsyncIterable<MessageShape<Desc>> {
  for await (const message of input) yield create(schema, message);
}

async function* once<T>(value: T): AsyncIterable<T> {
  yield value;
}

async function single<T>(input: AsyncIterable<T>): Promise<T> {
  const it = input[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) throw new ConnectError("protocol error: missing input message for server-streaming method", Code.Unimplemented);
  const second = await it.next();
  if (!second.done) throw new ConnectError("protocol error: received extra input message for server-streaming method", Code.Unimplemented);
  return first.value;
}
