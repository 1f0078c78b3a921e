// The REST edge: Koa app with the descriptor-driven routes, the OAuth edge,
// health, OpenAPI and docs. Errors from anywhere render through one mapper.
import Koa from "koa";
import Router from "@koa/router";
import type { DescFile } from "@bufbuild/protobuf";
import { buildRouteTable, type RestRoute } from "./routes/route-table.js";
import { mountUnbuiltRoutes, unbuiltOperations } from "./routes/unbuilt-routes.js";
import { mountRpcRoutes } from "./routes/rpc-routes.js";
import { bucketedRoutes } from "./routes/bucketed-routes.js";
import { mountOAuthRoutes } from "./oauth/oauth-routes.js";
import { mountHealthRoutes } from "./health/health-routes.js";
import { generateOpenApi } from "./openapi/generate.js";
import { DOCS_HTML } from "./docs/docs-page.js";
import { errorBodyFor, HttpError } from "./http/error-body.js";
import { clientWentAway, drainRequestAfterResponse } from "./http/drain-request.js";
import type { Upstreams } from "./upstreams.js";
import type { Log } from "./log.js";
import { requestTracing } from "./http/tracing-middleware.js";
import { requestLog } from "./http/request-log.js";
import { corsMiddleware } from "./http/cors.js";
import { proxySettings } from "./http/client-address.js";
import { setErrorHeaders } from "./http/error-headers.js";
import { trace } from "@opentelemetry/api";
import { DEFAULT_STREAMING_OPTIONS, type StreamingOptions } from "./streaming/index.js";

export interface GatewayOptions {
  files: readonly DescFile[];
  upstreams: Upstreams;
  logger: Log;
  maxJsonBodyBytes?: number;
  callTimeoutMs?: number;
  /** Explicit edges protobuf cannot model (multipart, binary, CSV ...). */
  extraRoutes?: (router: Router) => void;
  /** Streamed uploads/downloads (size ceiling, chunk size). */
  streaming?: Partial<StreamingOptions>;
  /** Browser origins allowed to call the API (GATEWAY_CORS_ORIGINS); none by default. */
  corsOrigins?: readonly string[];
  /** Proxies in front whose X-Forwarded-For entries name the client (GATEWAY_TRUSTED_PROXIES, http/client-address.ts); none by default. */
  trustedProxies?: number;
}

export interface Gateway {
  app: Koa;
  routes: RestRoute[];
  /** Every mounted route in precedence order; requests are dispatched through its buckets (bucketed-routes.ts). */
  router: Router;
}

export function createGateway(options: GatewayOptions): Gateway {
  const routes = buildRouteTable(options.files);
  const callTimeoutMs = options.callTimeoutMs ?? 30_000;
  const streaming = { ...DEFAULT_STREAMING_OPTIONS, ...options.streaming };
  const unbuilt = unbuiltOperations(routes);
  const openapi = generateOpenApi(routes, {}, unbuilt);
  const app = new Koa(proxySettings(options.trustedProxies ?? 0));
  const router = new Router();

  // What Koa reports outside the middleware chain (a response stream that failed, a
  // client gone mid-request) goes to the structured log, not to stderr.
  app.on("error", (err: unknown, ctx?: Koa.Context) => {
    if (ctx && clientWentAway(ctx, err)) options.logger.info({ method: ctx.method, path: ctx.path }, "client closed the connection before the exchange was complete");
    else options.logger.error({ err, method: ctx?.method, path: ctx?.path }, "response failed");
  });
  const tracing = requestTracing(trace.getTracer("signage-gateway"));
  app.use(tracing.middleware);
  app.use(requestLog(options.logger));
  // Before the error mapper, so error bodies carry the CORS headers too.
  app.use(corsMiddleware(options.corsOrigins ?? []));
  // Every answer is what its Content-Type says (JSON, the docs page, a stored file): no browser sniffs
  // an error message or a JSON string into HTML.
  app.use((ctx, next) => {
    ctx.set("X-Content-Type-Options", "nosniff");
    return next();
  });
  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new HttpError(404, "error.notFound", `No route for ${ctx.method} ${ctx.path}`);
      }
      // The router's 405/501 (the Allow header already set, RFC 9110 15.5.6) get the error body too.
      if (ctx.status === 405 && ctx.body === undefined) throw new HttpError(405, "error.methodNotAllowed", `Method ${ctx.method} is not allowed for this path; allowed: ${ctx.response.get("Allow")}`);
      if (ctx.status === 501 && ctx.body === undefined) throw new HttpError(501, "error.notImplemented", "Method not implemented");
    } catch (err) {
      const { body, unexpected } = errorBodyFor(err);
      if (clientWentAway(ctx, err)) options.logger.info({ method: ctx.method, path: ctx.path }, "client closed the connection before the request was complete");
      else if (unexpected) options.logger.error({ err, method: ctx.method, path: ctx.path }, "request failed");
      ctx.status = body.status;
      ctx.body = body;
      setErrorHeaders(ctx, body);
    } finally {
      // A body read in part (an error, or a service that answered early): Node only
      // discards bodies nobody started reading, so drain the rest here.
      if (ctx.req.readableDidRead) drainRequestAfterResponse(ctx, streaming.drainTimeoutMs);
    }
  });
  // Inside the error mapper: the error a 5xx span records.
  app.use(tracing.errorCapture);

  mountHealthRoutes(router, options.upstreams);
  router.get("/openapi.json", (ctx) => {
    ctx.body = openapi;
  });
  router.get("/docs", (ctx) => {
    ctx.type = "html";
    ctx.body = DOCS_HTML;
  });
  mountOAuthRoutes(router, options.upstreams, callTimeoutMs);
  options.extraRoutes?.(router);
  mountUnbuiltRoutes(router, unbuilt, () => mountRpcRoutes(router, routes, options.upstreams, {
    maxJsonBodyBytes: options.maxJsonBodyBytes ?? 5 * 1024 * 1024,
    // The in-memory multipart uploads (profile pictures) take at most 2 MiB: the gateway's 413 names
    // the same limit as the service's own check.
    maxMultipartBytes: 2 * 1024 * 1024,
    streaming,
    callTimeoutMs,
  }));

  // First in every route's own stack: the template is known there (router.use would see its own path).
  for (const layer of router.stack) if (layer.methods.length > 0) layer.stack.unshift(tracing.routeMatched);
  app.use(bucketedRoutes(router).middleware);
  // Not `throw: true`: the router sets the Allow header only when it does not throw.
  app.use(router.allowedMethods());
  return { app, routes, router };
}
