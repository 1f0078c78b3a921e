import * as http2 from "node:http2";
import { create } from "@bufbuild/protobuf";
import { appendHeaders, Code, ConnectError, createContextValues, type Interceptor, type Transport, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { createMethodUrl } from "@connectrpc/connect/protocol";
import { errorFromJsonBytes, requestHeader, validateResponseWithCompression } from "@connectrpc/connect/protocol-connect";
import { canAbort, unaryCallSignal } from "./call-signal.js";
import { createH2Connection, type H2Connection, type KeepAliveOptions } from "./h2-connection.js";
import { parseBinary, serializeBinary } from "../rpc/binary-messages.js";
import { chain } from "../rpc/interceptor-chain.js";

export interface ConnectUnaryTransportOptions {
  /** e.g. "http://core:50051" (cleartext HTTP/2 with prior knowledge). */
  baseUrl: string;
  interceptors?: readonly Interceptor[];
  /** Deadline applied to calls that don't set their own timeoutMs. */
  defaultTimeoutMs?: number;
  /** Serves the streaming methods (uploads, downloads): connect-node's own transport. */
  streaming: Transport;
  /** How a peer that vanished without closing the connection is detected; DEFAULT_KEEP_ALIVE otherwise. */
  keepAlive?: KeepAliveOptions;
}

/**
 * The Connect protocol's unary calls (binary, uncompressed) over one HTTP/2 connection,
 * without connect-node's per-call machinery: its async-iterable body plumbing, linked abort
 * controllers and separate header and body writes cost about a millisecond of CPU per call
 * on each side (tools/bench/gateway/rpc-probe.ts), where the hop itself costs a fifth of that.
 * Headers, content types, error bodies and trailers are connect's own protocol helpers; any
 * Connect server (connect-node, connect-go) answers it. Streaming calls go to `streaming`.
 */
export function createConnectUnaryTransport({ baseUrl, interceptors = [], defaultTimeoutMs, streaming, keepAlive }: ConnectUnaryTransportOptions): Transport {
  const connection = createH2Connection(new URL(baseUrl).origin, keepAlive);
  const run = chain((req) => exchange(connection, req as UnaryRequest), interceptors);
  return {
    unary(method, signal, timeoutMs, header, input, contextValues) {
      // As connect's transports: undefined takes the default, zero or less means none.
      const timeout = timeoutMs === undefined ? defaultTimeoutMs : timeoutMs <= 0 ? undefined : timeoutMs;
      const link = unaryCallSignal(signal, timeout);
      const req: UnaryRequest = {
        stream: false,
        service: method.parent,
        method,
        requestMethod: "POST",
        url: createMethodUrl(baseUrl, method),
        signal: link.signal,
        header: requestHeader("unary", true, timeout, header, true),
        contextValues: contextValues ?? createContextValues(),
        message: create(method.input, input),
      };
      // The chain is typed for any call; this one is the method's own unary response.
      return link.settle(run(req)) as never;
    },
    stream: (...args) => streaming.stream(...args),
  };
}

/**
 * One call: serialized before any stream opens (a message that cannot be written leaves no
 * stream behind), sent once more on a fresh stream if the peer refused it unprocessed.
 */
async function exchange(connection: H2Connection, req: UnaryRequest): Promise<UnaryResponse> {
  if (req.signal.aborted) throw ConnectError.from(req.signal.reason, Code.Canceled);
  const body = serializeBinary(req.method.input, req.message);
  const headers: http2.OutgoingHttpHeaders = { ":method": "POST", ":path": pathOf(req.url) };
  req.header.forEach((value, key) => {
    headers[key] = value;
  });
  try {
    return await send(connection, req, { ...headers }, body);
  } catch (err) {
    // REFUSED_STREAM promises the request was not processed (a server draining for a deploy
    // refuses what crossed its GOAWAY): safe to send again, once, on the connection that replaces it.
    if (!unprocessed.has(err as ConnectError) || req.signal.aborted) throw err;
    return send(connection, req, headers, body);
  }
}

/** Errors of requests the peer refused without processing them. */
const unprocessed = new WeakSet<ConnectError>();

/** One request and its whole response; headers and body leave in the same tick, so in one write. */
function send(connection: H2Connection, req: UnaryRequest, headers: http2.OutgoingHttpHeaders, body: Uint8Array): Promise<UnaryResponse> {
  return new Promise((resolve, reject) => {
    let stream: http2.ClientHttp2Stream;
    try {
      stream = connection.request(headers);
    } catch (err) {
      reject(transportFailure(err));
      return;
    }
    let settled = false;
    let status = 0;
    let responseHeader = new Headers();
    let responseTrailer = new Headers();
    const chunks: Buffer[] = [];
    const cancel = () => stream.close(http2.constants.NGHTTP2_CANCEL);
    const abortable = canAbort(req.signal);
    if (abortable) req.signal.addEventListener("abort", cancel, { once: true });
    const settle = (outcome: () => UnaryResponse) => {
      if (settled) return;
      settled = true;
      if (abortable) req.signal.removeEventListener("abort", cancel);
      try {
        resolve(outcome());
      } catch (err) {
        reject(err);
      }
    };
    const fail = (error: ConnectError) =>
      settle(() => {
        throw error;
      });
    const reset = () => {
      const error = resetFailure(stream.rstCode);
      if (stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM && status === 0) unprocessed.add(error);
      return error;
    };
    stream.on("response", (h) => {
      status = Number(h[":status"]);
      [responseHeader, responseTrailer] = headersAndTrailers(h);
    });
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    // Node also ends a stream that was reset or lost with its connection: only a whole answer counts.
    stream.once("end", () =>
      settle(() => {
        const received = Buffer.concat(chunks);
        if (stream.rstCode) throw reset();
        if (status === 0) throw new ConnectError("the connection closed before the response arrived", Code.Unavailable);
        const promised = responseHeader.get("content-length");
        if (promised !== null && Number(promised) !== received.byteLength) {
          throw new ConnectError(`protocol error: promised ${promised} bytes, received ${received.byteLength}`, Code.Internal);
        }
        return unaryResponse(req, status, responseHeader, responseTrailer, received);
      }),
    );
    stream.on("error", (err: NodeJS.ErrnoException) => fail(err.code === "ERR_HTTP2_STREAM_ERROR" ? reset() : transportFailure(err)));
    // Closed without an end (and without an error): reset by the peer or cut with its connection.
    stream.once("close", () => {
      if (!settled) fail(reset());
    });
    stream.end(body);
  });
}

/** What connect's Connect transport does with a complete unary response. */
function unaryResponse(req: UnaryRequest, status: number, header: Headers, trailer: Headers, body: Buffer): UnaryResponse {
  // No accept-encoding is sent, so any content-encoding but identity is refused here.
  const { isUnaryError, unaryError } = validateResponseWithCompression("unary", [], true, status, header);
  if (isUnaryError) throw errorFromJsonBytes(body, appendHeaders(header, trailer), unaryError!);
  return { stream: false, service: req.service, method: req.method, header, trailer, message: parseBinary(req.method.output, body) };
}

/** Response headers, and the trailers the Connect protocol sends as "trailer-" headers in unary responses (connect's trailerDemux, read once). */
function headersAndTrailers(nodeHeaders: http2.IncomingHttpHeaders): [Headers, Headers] {
  const header = new Headers();
  const trailer = new Headers();
  for (const key in nodeHeaders) {
    const value = nodeHeaders[key];
    if (key.startsWith(":") || value === undefined) continue;
    const [target, name] = key.startsWith("trailer-") ? [trailer, key.slice(8)] : [header, key];
    if (Array.isArray(value)) for (const v of value) target.append(name, v);
    else target.append(name, String(value));
  }
  return [header, trailer];
}

const paths = new Map<string, string>();
/** The request path of a method URL (one per method, so remembered). */
function pathOf(url: string): string {
  let path = paths.get(url);
  if (path === undefined) paths.set(url, (path = new URL(url).pathname));
  return path;
}

/** Failures of the connection itself (refused, reset, gone away): the peer is unavailable. */
const CONNECTION_FAILURES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "ERR_HTTP2_GOAWAY_SESSION",
  "ERR_HTTP2_STREAM_CANCEL",
  "ERR_HTTP2_SESSION_ERROR",
  "ERR_HTTP2_INVALID_SESSION",
  "ERR_STREAM_PREMATURE_CLOSE",
]);

function transportFailure(reason: unknown): ConnectError {
  if (reason instanceof ConnectError) return reason;
  const unavailable = causes(reason).some((code) => CONNECTION_FAILURES.has(code));
  const error = ConnectError.from(reason, unavailable ? Code.Unavailable : Code.Internal);
  if (error !== reason) error.cause = reason;
  return error;
}

function causes(reason: unknown): string[] {
  const codes: string[] = [];
  for (let r = reason; r instanceof Error && codes.length < 8; r = r.cause) if ("code" in r && typeof r.code === "string") codes.push(r.code);
  return codes;
}

/** A stream that closed without a complete response, by its RST_STREAM code (as connect-node maps them). */
function resetFailure(rstCode: number | undefined): ConnectError {
  const { constants } = http2;
  switch (rstCode) {
    case constants.NGHTTP2_REFUSED_STREAM:
      return new ConnectError("stream refused by the server", Code.Unavailable);
    case constants.NGHTTP2_CANCEL:
      // Our own cancellations settle before this; a cancel from the peer, or a lost connection, ends up here.
      return new ConnectError("the stream was canceled by the peer or lost with its connection", Code.Unavailable);
    case constants.NGHTTP2_ENHANCE_YOUR_CALM:
      return new ConnectError("stream reset: enhance your calm", Code.ResourceExhausted);
    case constants.NGHTTP2_INADEQUATE_SECURITY:
      return new ConnectError("stream reset: inadequate security", Code.PermissionDenied);
    case undefined:
    case constants.NGHTTP2_NO_ERROR:
      return new ConnectError("connection closed before the response was complete", Code.Unavailable);
    default:
      return new ConnectError(`stream reset with code ${rstCode}`, Code.Internal);
  }
}
