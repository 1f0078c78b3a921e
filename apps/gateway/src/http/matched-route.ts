import type { Context } from "koa";

/** The route template @koa/router matched (`/api/v2/file/:id`), for logs and span names: never ids. */
export function matchedRoute(ctx: Context): string | undefined {
  const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
  return route === undefined ? undefined : String(route);
}
