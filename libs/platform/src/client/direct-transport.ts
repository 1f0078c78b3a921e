import { create, type DescMessage, type DescMethod, type DescMethodStreaming, type DescMethodUnary, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
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
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import type { Routes } from "../server/create-service.js";

export interface DirectTransportOptions {
  /** Server-side interceptors, normally `service.interceptors` (first = outermost). */
  interceptors?: readonly Interceptor[];
  /** Client-side interceptors, as the caller would use over the network. */
  clientInterceptors?: readonly Interceptor[];
}

type AnyFn = (req: UnaryRequest | StreamRequest) => Promise<UnaryResponse | StreamResponse>;

const neverAborted = new AbortController().signal;

/**
 * Transport that calls a service's implementations in the same process with no
 * serialization, no HTTP emulation and no async-iterable plumbing for unary calls:
 * the embedded composition's hot path. The request still passes the client's and the
 * service's interceptors (tracing, auth, error logging) exactly as over the network,
 * with headers as the only channel between the two sides; messages are handed over
 * by reference, so the caller owns what it sends and what it gets back.
 */
export function createDirectTransport(routes: Routes, options: DirectTransportOptions = {}): Transport {
  const specs = collectImplementations(routes);
  const serverInterceptors = options.interceptors ?? [];
  const clientInterceptors = options.clientInterceptors ?? [];

  function specFor(method: DescMethod): MethodImplSpec {
    const spec = specs.get(methodPath(method));
    if (!spec) throw new ConnectError(`${methodPath(method)} is not served here`, Code.Unimplemented);
    return spec;
  }

  /** Runs the server side of one call: a fresh handler context, the service's interceptors, the implementation. */
  function serve(spec: MethodImplSpec, signal: AbortSignal, timeoutMs: number | undefined): AnyFn {
    return async (clientReq) => {
      const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
      const responseHeader = new Headers();
      const responseTrailer = new Headers();
      const implementation: AnyFn = (req) => {
        const ctx: HandlerContext = {
          service: spec.method.parent,
          method: spec.method,
          protocolName: "direct",
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
      // What crosses the boundary: the message and the headers (the client's Headers object is
      // per call, so it is handed over, not copied). Context values are per side.
      const serverReq = { ...clientReq, contextValues: createContextValues(), signal } as UnaryRequest | StreamRequest;
      try {
        return await chain(implementation, serverInterceptors)(serverReq);
      } catch (err) {
        // As connect's handlers do: a non-ConnectError's message stays inside the service.
        throw err instanceof ConnectError ? err : new ConnectError("internal error", Code.Internal, undefined, undefined, err);
      }
    };
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
    return link.settle(chain(serve(spec, link.signal, timeoutMs), clientInterceptors)(request));
  }

  return {
    unary<I extends DescMessage, O extends DescMessage>(
      method: DescMethodUnary<I, O>,
      signal: AbortSignal | undefined,
      timeoutMs: number | undefined,
      header: ConstructorParameters<typeof Headers>[0],
      input: MessageInitShape<I>,
      contextValues?: ReturnType<typeof createContextValues>,
    ): Promise<UnaryResponse<I, O>> {
      return call(method, signal, timeoutMs, header, create(method.input, input), false, contextValues) as Promise<UnaryResponse<I, O>>;
    },
    stream<I extends DescMessage, O extends DescMessage>(
      method: DescMethodStreaming<I, O>,
      signal: AbortSignal | undefined,
      timeoutMs: number | undefined,
      header: ConstructorParameters<typeof Headers>[0],
      input: AsyncIterable<MessageInitShape<I>>,
      contextValues?: ReturnType<typeof createContextValues>,
    ): Promise<StreamResponse<I, O>> {
      return call(method, signal, timeoutMs, header, normalizeStream(method.input, input), true, contextValues) as Promise<StreamResponse<I, O>>;
    },
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

/** The implementations `routes` registers, by "package.Service/Method"; the real router keeps `handlers` for routes that read it. */
function collectImplementations(routes: Routes): Map<string, MethodImplSpec> {
  const specs = new Map<string, MethodImplSpec>();
  const router = createConnectRouter();
  const recorder: ConnectRouter = {
    get handlers() {
      return router.handlers;
    },
    service(service, implementation, opts) {
      router.service(service, implementation, opts);
      for (const spec of Object.values(createServiceImplSpec(service, implementation).methods)) specs.set(methodPath(spec.method), spec);
      return recorder;
    },
    rpc(method, implementation, opts) {
      router.rpc(method, implementation, opts);
      specs.set(methodPath(method), createMethodImplSpec(method, implementation));
      return recorder;
    },
  };
  routes(recorder);
  return specs;
}

function methodPath(method: DescMethod): string {
  return `${method.parent.typeName}/${method.name}`;
}

/** First interceptor outermost, as connect applies them. */
function chain(last: AnyFn, interceptors: readonly Interceptor[]): AnyFn {
  let next = last;
  for (let i = interceptors.length - 1; i >= 0; i--) next = interceptors[i](next as never) as unknown as AnyFn;
  return next;
}

/** The signal a call runs under, and how its result settles: with the call, or Canceled / DeadlineExceeded as soon as the signal aborts. */
interface CallSignal {
  signal: AbortSignal;
  settle<T>(result: Promise<T>): Promise<T>;
}

/** Starts watching for an abort (calling `stop` with its reason, never synchronously) and returns how to stop watching. */
type Watch = (stop: (reason: unknown) => void) => () => void;

function settleUnlessStopped<T>(result: Promise<T>, watch: Watch): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const release = watch((reason) => {
      release();
      reject(abortError(reason));
    });
    result.then(
      (value) => {
        release();
        resolve(value);
      },
      (err) => {
        release();
        reject(ConnectError.from(err));
      },
    );
  });
}

const unlinked: CallSignal = { signal: neverAborted, settle: (result) => settleUnlessStopped(result, () => () => {}) };

/**
 * A unary call ends when its response arrives, so one controller, a plain timer and a
 * listener on the caller's signal, all released at the end, cover it. This is the
 * embedded hot path: AbortSignal.timeout + AbortSignal.any cost two more signals, weak
 * references and a DOMException per call.
 */
function unaryCallSignal(caller: AbortSignal | undefined, timeoutMs: number | undefined): CallSignal {
  const hasDeadline = timeoutMs !== undefined && timeoutMs > 0;
  if (!hasDeadline && !caller) return unlinked;
  const controller = new AbortController();
  if (caller?.aborted) controller.abort(caller.reason);
  const watch: Watch = (stop) => {
    if (controller.signal.aborted) {
      queueMicrotask(() => stop(controller.signal.reason));
      return () => {};
    }
    const abort = (reason: unknown) => {
      controller.abort(reason);
      stop(reason);
    };
    const onCallerAbort = () => abort(caller!.reason);
    const timer = hasDeadline ? setTimeout(() => abort(deadlineExceeded()), timeoutMs) : undefined;
    caller?.addEventListener("abort", onCallerAbort, { once: true });
    return () => {
      clearTimeout(timer);
      caller?.removeEventListener("abort", onCallerAbort);
    };
  };
  return { signal: controller.signal, settle: (result) => settleUnlessStopped(result, watch) };
}

/** A stream outlives its response (the deadline still applies to its messages), so its signal is left to the garbage collector. */
function streamCallSignal(caller: AbortSignal | undefined, timeoutMs: number | undefined): CallSignal {
  if (timeoutMs === undefined || timeoutMs <= 0) return caller ? watching(caller) : unlinked;
  const deadline = AbortSignal.timeout(timeoutMs);
  return watching(caller ? AbortSignal.any([caller, deadline]) : deadline);
}

function watching(signal: AbortSignal): CallSignal {
  const watch: Watch = (stop) => {
    const onAbort = () => stop(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) queueMicrotask(onAbort);
    return () => signal.removeEventListener("abort", onAbort);
  };
  return { signal, settle: (result) => settleUnlessStopped(result, watch) };
}

function deadlineExceeded(): ConnectError {
  return new ConnectError("the operation timed out", Code.DeadlineExceeded);
}

function abortError(reason: unknown): ConnectError {
  if (reason instanceof DOMException && reason.name === "TimeoutError") return deadlineExceeded();
  return ConnectError.from(reason, Code.Canceled);
}

async function* normalizeStream<Desc extends DescMessage>(schema: Desc, input: AsyncIterable<MessageInitShape<Desc>>): AsyncIterable<MessageShape<Desc>> {
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
