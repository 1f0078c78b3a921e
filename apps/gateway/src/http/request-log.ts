// One log line per finished request: the gateway's access log. Written when the response is
// done, so a streamed body counts in the duration, and in the request's trace context, so the
// logger's mixin adds the trace id. Only the path is logged, never the query string (presigned
// URLs carry a `signature`), headers (Authorization, cookies) or bodies.
import { performance } from "node:perf_hooks";
import { context } from "@opentelemetry/api";
import type { Context, Middleware } from "koa";
import type { Log } from "../log.js";
import { matchedRoute } from "./matched-route.js";

/** Probes every few seconds: the same noise the traces leave out. */
const UNLOGGED_PATHS = /^\/(healthz|readyz|livez)\/?$/;

/** Mounted inside the tracing middleware (for the trace id) and outside the error mapper. */
export function requestLog(logger: Log): Middleware {
  return async (ctx, next) => {
    if (UNLOGGED_PATHS.test(ctx.path)) return next();
    const started = performance.now();
    // Read now: once a client is gone its socket no longer has the address.
    const clientAddress = ctx.ip;
    // Logged once the response is closed and the middleware chain is done, whichever comes last: a
    // client gone early closes the response before the error mapper sets the final status.
    let pending = 2;
    const finished = context.bind(context.active(), () => {
      if (--pending === 0) logFinished(logger, ctx, clientAddress, performance.now() - started);
    });
    ctx.res.once("close", finished);
    try {
      await next();
    } finally {
      finished();
    }
  };
}

function logFinished(logger: Log, ctx: Context, clientAddress: string, durationMs: number): void {
  const route = matchedRoute(ctx);
  const status = ctx.res.statusCode;
  const length = ctx.res.getHeader("content-length");
  // The connection closed before the whole response was sent: the client went away.
  const aborted = !ctx.res.writableFinished;
  const line = {
    method: ctx.method,
    ...(route ? { route } : { path: ctx.path }),
    status,
    duration_ms: Math.round(durationMs * 10) / 10,
    // The declared length: a client gone early got less, a HEAD none.
    ...(length !== undefined && { content_length: Number(length) }),
    client_address: clientAddress,
    ...(aborted && { aborted: true }),
  };
  // A 5xx at warn, not error: the error mapper already logs an unexpected failure at error, with
  // the error itself, so each failure has one error line; expected 5xx (503 upstream down, 504),
  // which it does not log, still stand out. A client gone mid-request is no server failure
  // whatever status the mapper gave it.
  if (status >= 500 && !aborted) logger.warn(line, "request");
  else logger.info(line, "request");
}
