import * as http2 from "node:http2";
import { Code, ConnectError, createContextValues, type Interceptor, type MethodImplSpec, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { codeToHttpStatus, errorToJsonBytes, parseTimeout, trailerMux } from "@connectrpc/connect/protocol-connect";
import { parseBinary, serializeBinary } from "../rpc/binary-messages.js";
import type { NodeHandler } from "./h2c-server.js";
import { serveImplementation, type RecordedRoutes } from "./serve-implementation.js";

export interface UnaryFastPathOptions {
  /** The service's registrations, recorded once (connect-node's router replays the same ones). */
  routes: RecordedRoutes;
  /** The same interceptors connect-node runs for this service. */
  interceptors: readonly Interceptor[];
  /** Aborts every handler's signal when a drain runs out of time. */
  shutdownSignal: AbortSignal;
  /** connect-node's handler: everything the fast path does not take. */
  fallback: NodeHandler;
  /** Largest request message read (connect-node's `readMaxBytes` for the fallback): a larger one is ResourceExhausted, never buffered. */
  readMaxBytes: number;
}

/**
 * Serves the calls internal clients make most, Connect unary with a binary, uncompressed
 * body over HTTP/2, without connect-node's universal request/response conversion, async
 * iterables and per-call linked abort controllers (about half a millisecond of CPU per
 * call, tools/bench/gateway/rpc-probe.ts). The implementation runs under the same
 * interceptors, and the response is what connect's own Connect handler writes, built with
 * its protocol helpers. gRPC, gRPC-Web, JSON, GET, compressed bodies, streaming methods and
 * methods registered with handler options of their own go to `fallback`.
 */
export function withConnectUnaryFastPath({ routes, interceptors, shutdownSignal, fallback, readMaxBytes }: UnaryFastPathOptions): NodeHandler {
  const unary = new Map<string, MethodImplSpec>();
  for (const [path, spec] of routes.specs) if (spec.kind === "unary" && !routes.withOptions.has(path)) unary.set(`/${path}`, spec);
  return (req, res) => {
    const spec = req.httpVersionMajor === 2 && req.method === "POST" ? unary.get(req.url ?? "") : undefined;
    if (!spec || !isBinaryIdentityBody(req.headers)) return fallback(req, res);
    serveUnary(spec, interceptors, shutdownSignal, readMaxBytes, req as http2.Http2ServerRequest, res as http2.Http2ServerResponse);
  };
}

function isBinaryIdentityBody(headers: http2.IncomingHttpHeaders): boolean {
  const encoding = headers["content-encoding"];
  return headers["content-type"] === "application/proto" && (encoding === undefined || encoding === "identity");
}

function serveUnary(spec: MethodImplSpec, interceptors: readonly Interceptor[], shutdownSignal: AbortSignal, readMaxBytes: number, req: http2.Http2ServerRequest, res: http2.Http2ServerResponse): void {
  let chunks: Buffer[] = [];
  let received = 0;
  req.on("data", (chunk: Buffer) => {
    received += chunk.length;
    // Past the limit the rest is read and dropped (memory stays flat); the answer is the error.
    if (received > readMaxBytes) chunks = [];
    else chunks.push(chunk);
  });
  req.once("end", () => {
    // A stream the client reset also ends its request: nobody is left to answer.
    if (res.stream.destroyed || res.stream.rstCode) return;
    const body = received > readMaxBytes ? new ConnectError(`message size ${received} is larger than configured readMaxBytes ${readMaxBytes}`, Code.ResourceExhausted) : Buffer.concat(chunks);
    answer(spec, interceptors, shutdownSignal, req, res, body).catch(() => {
      // Only writing the answer can fail here (e.g. a header node refuses): the stream ends in error.
      if (!res.stream.closed) res.stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
    });
  });
}

/** `body`: the request message's bytes, or the error reading them ended in (answered as any failed call). */
async function answer(spec: MethodImplSpec, interceptors: readonly Interceptor[], shutdownSignal: AbortSignal, req: http2.Http2ServerRequest, res: http2.Http2ServerResponse, body: Buffer | ConnectError): Promise<void> {
  // The handler's signal: the client going away, the deadline, or a forced shutdown.
  const controller = new AbortController();
  const abort = (reason: unknown) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const onShutdown = () => abort(shutdownSignal.reason);
  // (The compat response counts as finished once its stream is reset, so our own flag tells.)
  let answered = false;
  const onClose = () => {
    if (!answered) abort(new ConnectError("the client closed the request", Code.Canceled));
  };
  res.once("close", onClose);
  if (shutdownSignal.aborted) onShutdown();
  else shutdownSignal.addEventListener("abort", onShutdown, { once: true });
  const timeoutHeader = req.headers["connect-timeout-ms"];
  const timeout = parseTimeout(typeof timeoutHeader === "string" ? timeoutHeader : null, Number.MAX_SAFE_INTEGER);
  const timer = timeout.timeoutMs === undefined ? undefined : setTimeout(() => abort(new ConnectError("the operation timed out", Code.DeadlineExceeded)), timeout.timeoutMs);

  let status = 200;
  let header: Headers;
  let payload: Uint8Array;
  const responseHeader = new Headers();
  const responseTrailer = new Headers();
  try {
    if (timeout.error) throw timeout.error;
    if (body instanceof ConnectError) throw body;
    const request = {
      stream: false,
      service: spec.method.parent,
      method: spec.method,
      requestMethod: "POST",
      url: `http://${req.headers[":authority"] ?? "localhost"}${req.url}`,
      header: requestHeaders(req.headers),
      contextValues: createContextValues(),
      message: parseBinary(spec.method.input, body),
      signal: controller.signal,
    } as UnaryRequest;
    const serve = serveImplementation(spec, interceptors, { protocolName: "connect", signal: controller.signal, timeoutMs: timeout.timeoutMs, responseHeader, responseTrailer });
    const response = (await serve(request)) as UnaryResponse;
    payload = serializeBinary(spec.method.output, response.message);
    header = trailerMux(response.header, response.trailer);
    header.set("content-type", "application/proto");
  } catch (err) {
    // As connect's Connect handler answers a failed unary call: what the handler set, the error's metadata, the error as JSON.
    const error = ConnectError.from(err);
    abort(error);
    status = codeToHttpStatus(error.code);
    header = trailerMux(responseHeader, responseTrailer);
    error.metadata.forEach((value, key) => header.set(key, value));
    header.set("content-type", "application/json");
    payload = errorToJsonBytes(error, {});
  } finally {
    clearTimeout(timer);
    shutdownSignal.removeEventListener("abort", onShutdown);
  }
  answered = true;
  // As connect does, the handler's signal ends with the call: work it started and left running stops.
  abort(CALL_ENDED);
  if (res.destroyed || res.stream.closed) return;
  res.writeHead(status, nodeHeaders(header, payload.byteLength));
  res.end(payload);
}

/** The reason a finished call's signal carries (shared: building an error per call costs a stack trace). */
const CALL_ENDED = new ConnectError("the call has ended", Code.Canceled);

function nodeHeaders(header: Headers, contentLength: number): http2.OutgoingHttpHeaders {
  const out: http2.OutgoingHttpHeaders = { "content-length": contentLength };
  header.forEach((value, key) => {
    const previous = out[key];
    // Headers iterates set-cookie once per value; node takes repeated fields as an array.
    out[key] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [String(previous)]), value];
  });
  return out;
}



function requestHeaders(nodeHeaders: http2.IncomingHttpHeaders): Headers {
  const header = new Headers();
  for (const key in nodeHeaders) {
    const value = nodeHeaders[key];
    if (key.startsWith(":") || value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) header.append(key, v);
    else header.append(key, value);
  }
  return header;
}
