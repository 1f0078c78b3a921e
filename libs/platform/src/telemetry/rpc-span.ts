import { Code, ConnectError } from "@connectrpc/connect";
import { SpanStatusCode, context, type Attributes, type Context, type Span } from "@opentelemetry/api";

interface RpcRequestLike {
  readonly service: { readonly typeName: string };
  readonly method: { readonly name: string };
  readonly header: Headers;
}

/** Span name and attributes per the OTel RPC conventions: `pkg.Service/Method`. */
export function rpcSpanStart(req: RpcRequestLike): { name: string; attributes: Attributes } {
  const service = req.service.typeName;
  const method = req.method.name;
  return {
    name: `${service}/${method}`,
    attributes: { "rpc.system": rpcSystem(req.header), "rpc.service": service, "rpc.method": method },
  };
}

/** grpc and grpc-web are "grpc"; anything else here is the Connect protocol. */
function rpcSystem(header: Headers): string {
  return (header.get("content-type") ?? "").startsWith("application/grpc") ? "grpc" : "connect_rpc";
}

// Per the RPC conventions a server only marks its span as failed for codes
// that mean the server itself broke; NotFound, InvalidArgument... are the caller's.
const serverErrorCodes = new Set([
  Code.Unknown,
  Code.DeadlineExceeded,
  Code.Unimplemented,
  Code.Internal,
  Code.Unavailable,
  Code.DataLoss,
]);

/** Ends the span of a call that succeeded; returns its status code (0). */
export function endRpcSpanOk(span: Span): Code | 0 {
  span.setAttribute("rpc.grpc.status_code", 0);
  span.end();
  return 0;
}

/** Ends the span of a call that failed; returns the status code the caller sees (server) or saw (client). */
export function endRpcSpanError(span: Span, err: unknown, side: "server" | "client"): Code {
  const code = side === "server" ? wireCode(err) : ConnectError.from(err).code;
  span.setAttribute("rpc.grpc.status_code", code);
  span.setAttribute("rpc.connect_rpc.error_code", Code[code] ?? String(code));
  if (side === "client" || serverErrorCodes.has(code)) {
    recordException(span, err);
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
  }
  span.end();
  return code;
}

/**
 * The code the caller receives for what a handler threw: a ConnectError's own, anything
 * else is Internal (connect's handlers and serve-implementation.ts answer so), not the
 * Unknown of ConnectError.from.
 */
function wireCode(err: unknown): Code {
  return err instanceof ConnectError ? err.code : Code.Internal;
}

/**
 * span.recordException takes an error's `code` for `exception.type` when it has one (a
 * ConnectError's number, pg's SQLSTATE): the type is the error's class here.
 */
function recordException(span: Span, err: unknown): void {
  if (!(err instanceof Error)) {
    span.recordException(String(err));
    return;
  }
  span.addEvent("exception", {
    "exception.type": errorClass(err),
    "exception.message": err.message,
    ...(err.stack ? { "exception.stacktrace": err.stack } : {}),
  });
}

/** The constructor's name (pg's DatabaseError sets `name` to "error"), else `name`. */
function errorClass(err: Error): string {
  const ctor = err.constructor?.name;
  return ctor && ctor !== "Object" ? ctor : err.name;
}

/**
 * Streaming responses outlive the interceptor call: end the call (`end`, once:
 * see rpc-call.ts) when the stream finishes, and run each step inside the span's context so the
 * handler's generator body (server) sees it as active.
 */
export function traceStream<T>(stream: AsyncIterable<T>, ctx: Context, end: (err?: unknown) => void): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const it = context.with(ctx, () => stream[Symbol.asyncIterator]());
      return {
        async next() {
          try {
            const result = await context.with(ctx, () => it.next());
            if (result.done) end();
            return result;
          } catch (err) {
            end(err);
            throw err;
          }
        },
        async return(value?: unknown) {
          // Consumer stopped early (client cancelled): treat as Canceled.
          end(new ConnectError("stream closed by consumer", Code.Canceled));
          return (await it.return?.(value)) ?? { done: true, value: undefined };
        },
        async throw(err?: unknown) {
          end(err);
          if (it.throw) return it.throw(err);
          throw err;
        },
      };
    },
  };
}
