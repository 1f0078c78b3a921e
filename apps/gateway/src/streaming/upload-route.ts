// Client-streaming RPCs with a google.api.http rule: the first message carries
// the path and query fields, then the body parts stream as StreamedBodyPart
// (see stream.proto). The RPC's single answer renders like a unary response.
import { create, type DescMethodStreaming, type DescMessage } from "@bufbuild/protobuf";
import type { Context } from "koa";
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import type { RestRoute } from "../routes/route-table.js";
import { buildRequest, type QueryValues } from "../transcode/request-builder.js";
import { renderResponse } from "../transcode/response-renderer.js";
import { forwardHeaders } from "../http/forward-headers.js";
import { bodyParts } from "./body-parts.js";
import { responseAbortSignal } from "../http/response-abort-signal.js";
import type { StreamingOptions } from "./streaming-options.js";

export function uploadHandler(route: RestRoute, transport: Transport, options: StreamingOptions) {
  const method = route.method as DescMethodStreaming<DescMessage, DescMessage>;
  const firstRoute: RestRoute = { ...route, body: "" };
  return async (ctx: Context): Promise<void> => {
    const first = buildRequest(firstRoute, { params: ctx.params as Record<string, string>, query: ctx.query as QueryValues, body: undefined });
    // An error raised while reading the body (413, bad multipart) wins over the
    // cancellation the transport reports because of it.
    let bodyError: unknown;
    async function* messages() {
      yield first;
      try {
        for await (const part of bodyParts(ctx, { maxBytes: options.maxBodyBytes, chunkBytes: options.chunkBytes })) yield create(method.input, { body: { kind: part } } as never);
        // The body is all in: from here the silence is the service's (a package checked and
        // stored, an S3 part completing), which the idle timeout (GATEWAY_IDLE_TIMEOUT_MS) must
        // not cut. Node re-arms the socket's timeouts itself once the response is sent.
        ctx.req.socket.setTimeout(0);
      } catch (err) {
        bodyError = err;
        // The client gets the body's own error (below); the service only learns that the body
        // failed, as a cancelled stream, which is all it sees over the network too. Handed the
        // error itself (in process, messages go by reference), it failed the call with a plain
        // Error: logged as a failure of its own ("rpc handler failed") and counted as INTERNAL
        // for every client that reset or cut its upload short.
        throw new ConnectError("the request body could not be read", Code.Canceled);
      }
    }
    const body = messages();
    try {
      const response = await transport.stream(method, responseAbortSignal(ctx), undefined, forwardHeaders(ctx), body as never);
      let answer: Record<string, unknown> | undefined;
      for await (const message of response.message) answer = message as Record<string, unknown>;
      if (bodyError) throw bodyError;
      const rendered = renderResponse(route, answer ?? {});
      if (rendered === undefined) ctx.status = 204;
      else ctx.body = rendered;
    } catch (err) {
      throw bodyError ?? err;
    } finally {
      // Answered (or failed) before the client finished sending: stop reading for the
      // service; the gateway drains the rest, so the client gets the answer.
      body.return(undefined).catch(() => undefined);
    }
  };
}
