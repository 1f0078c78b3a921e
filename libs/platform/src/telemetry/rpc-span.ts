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

export function endRpcSpanOk(span: Span): void {
  span.setAttribute("rpc.grpc.status_code", 0);
  span.end();
}

export function endRpcSpanError(span: Span, err: unknown, side: "server" | "client"): void {
  const connectErr = ConnectError.from(err);
  span.setAttribute("rpc.grpc.status_code", connectErr.code);
  span.setAttribute("rpc.connect_rpc.error_code", Code[connectErr.code] ?? String(connectErr.code));
  if (side === "client" || serverErrorCodes.has(connectErr.code)) {
    span.recordException(connectErr);
    span.setStatus({ code: SpanStatusCode.ERROR, message: connectErr.message });
  }
  span.end();
}

/**
 * Streaming responses outlive the interceptor call: end the span when the
 * stream finishes, and run each step inside the span's context so the
 * handler's generator body (server) sees it as active.
 */
export function traceStream<T>(
  stream: AsyncIterable<T>,
  span: Span,
  ctx: Context,
  side: "server" | "client",
): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const it = context.with(ctx, () => stream[Symbol.asyncIterator]());
      let ended = false;
      const finish = (err?: unknown) => {
        if (ended) return;
        ended = true;
        if (err === undefined) endRpcSpanOk(span);
        else endRpcSpanError(span, err, side);
      };
      return {
        async next() {
          try {
            const result = await context.with(ctx, () => it.next());
            if (result.done) finish();
            return result;
          } catch (err) {
            finish(err);
            throw err;
          }
        },
        async return(value?: unknown) {
          // Consumer stopped early (client cancelled): treat as Canceled.
          finish(new ConnectError("stream closed by consumer", Code.Canceled));
          return (await it.return?.(value)) ?? { done: true, value: undefined };
        },
        async throw(err?: unknown) {
          finish(err);
          if (it.throw) return it.throw(err);
          throw err;
        },
      };
    },
  };
}
