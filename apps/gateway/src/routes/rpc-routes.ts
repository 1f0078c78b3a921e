// Mounts every descriptor-defined REST route on the router: HTTP -> RPC
// request, call the owning service, RPC response -> documented JSON.
import type Router from "@koa/router";
import type { Context } from "koa";
import type { RestRoute } from "./route-table.js";
import type { Upstreams } from "../upstreams.js";
import { buildRequest, type QueryValues } from "../transcode/request-builder.js";
import { renderResponse } from "../transcode/response-renderer.js";
import { readJsonBody } from "../http/read-body.js";
import { forwardHeaders } from "../http/forward-headers.js";

export interface RpcRouteOptions {
  maxJsonBodyBytes: number;
  callTimeoutMs: number;
}

function abortSignalOf(ctx: Context): AbortSignal {
  const controller = new AbortController();
  ctx.req.once("close", () => {
    if (!ctx.res.writableEnded) controller.abort();
  });
  return controller.signal;
}

export function mountRpcRoutes(router: Router, routes: RestRoute[], upstreams: Upstreams, options: RpcRouteOptions): void {
  for (const route of routes) {
    const transport = upstreams.transportFor(route.service);
    const verb = route.verb.toLowerCase() as "get" | "post" | "put" | "delete" | "patch";
    router[verb](route.template.routerPath, async (ctx) => {
      const body = route.body ? await readJsonBody(ctx, options.maxJsonBodyBytes) : undefined;
      const request = buildRequest(route, { params: ctx.params, query: ctx.query as QueryValues, body });
      const response = await transport.unary(
        route.method as never,
        abortSignalOf(ctx),
        options.callTimeoutMs,
        forwardHeaders(ctx),
        request as never,
      );
      const rendered = renderResponse(route, response.message as Record<string, unknown>);
      if (rendered === undefined) ctx.status = 204;
      else ctx.body = rendered;
    });
  }
}
