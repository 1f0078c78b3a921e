// Mounts every descriptor-defined REST route on the router: HTTP -> RPC
// request, call the owning service, RPC response -> documented JSON.
import type Router from "@koa/router";
import type { Context } from "koa";
import type { RestRoute } from "./route-table.js";
import type { Upstreams } from "../upstreams.js";
import { buildRequest, type QueryValues } from "../transcode/request-builder.js";
import { renderResponse } from "../transcode/response-renderer.js";
import { readJsonBody } from "../http/read-body.js";
import { readFirstFile } from "../http/read-multipart.js";
import { HttpError } from "../http/error-body.js";
import { isHttpBodyShaped } from "../transcode/http-body.js";
import { setStoredContentHeaders } from "../http/stored-content-headers.js";
import { forwardHeaders } from "../http/forward-headers.js";
import { DEFAULT_STREAMING_OPTIONS, mountStreamingRoute, type StreamingOptions } from "../streaming/index.js";
import { responseAbortSignal } from "../http/response-abort-signal.js";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { mountGuarded, refuseWithoutBearer } from "./bearer-refusal.js";

export interface RpcRouteOptions {
  maxJsonBodyBytes: number;
  /** Cap for multipart uploads into HttpBody-shaped requests. */
  maxMultipartBytes: number;
  /** Streamed bodies of client/server-streaming RPCs (apps/gateway/src/streaming). */
  streaming?: StreamingOptions;
  callTimeoutMs: number;
}

async function readBody(ctx: Context, route: RestRoute, options: RpcRouteOptions): Promise<unknown> {
  if (route.body === "*" && isHttpBodyShaped(route.method.input)) {
    if (!ctx.is("multipart")) throw new HttpError(415, "request.error.unsupportedMediaType", "Expected a multipart/form-data upload");
    const file = await readFirstFile(ctx, options.maxMultipartBytes);
    return { data: file.data.toString("base64"), contentType: file.contentType };
  }
  return readJsonBody(ctx, options.maxJsonBodyBytes);
}

export function mountRpcRoutes(router: Router, routes: RestRoute[], upstreams: Upstreams, options: RpcRouteOptions): void {
  for (const route of routes) {
    // A route needing a token refuses a request without one before its handler reads the body or query.
    mountGuarded(router, route.minRole > Role.PUBLIC ? refuseWithoutBearer(route.method) : undefined, () => mountRoute(router, route, upstreams, options));
  }
}

function mountRoute(router: Router, route: RestRoute, upstreams: Upstreams, options: RpcRouteOptions): void {
  const transport = upstreams.transportFor(route.service);
  if (route.method.methodKind !== "unary") {
    mountStreamingRoute(router, route, transport, options.streaming ?? DEFAULT_STREAMING_OPTIONS);
    return;
  }
  const verb = route.verb.toLowerCase() as "get" | "post" | "put" | "delete" | "patch";
  router[verb](route.template.routerPath, async (ctx) => {
    const body = route.body ? await readBody(ctx, route, options) : undefined;
    const request = buildRequest(route, { params: ctx.params, query: ctx.query as QueryValues, body, rawQuery: ctx.querystring });
    const response = await transport.unary(
      route.method as never,
      responseAbortSignal(ctx),
      options.callTimeoutMs,
      forwardHeaders(ctx),
      request as never,
    );
    if (!route.responseBody && isHttpBodyShaped(route.method.output)) {
      const raw = response.message as unknown as { data: Uint8Array; contentType: string };
      setStoredContentHeaders(ctx, raw.contentType);
      ctx.type = raw.contentType || "application/octet-stream";
      ctx.body = Buffer.from(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength);
      return;
    }
    const rendered = renderResponse(route, response.message as Record<string, unknown>);
    // A caller's own data (secrets among it: a new 2FA secret, an API client's): never stored by a cache.
    ctx.set("Cache-Control", "no-store");
    if (rendered === undefined) ctx.status = 204;
    else ctx.body = rendered;
  });
}
