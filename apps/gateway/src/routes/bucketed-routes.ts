// @koa/router tests every layer's pattern on every request: with every documented operation
// mounted (served or 501) that is some 500 regular expressions per request, about a tenth of
// the gateway's CPU. A route can only match a path whose leading literal segments equal its
// own, so the layers are split by those segments once, and a request tests only the layers
// that could match it, still in mounting order (precedence unchanged).
import type Koa from "koa";
import Router from "@koa/router";

type Layer = Router["stack"][number];

/** How many leading segments pick a bucket: `/api/v2/file/...` -> `api/v2/file`. */
const DEPTH = 3;

/** The layer's leading literal segments, lower-cased (routes match case-insensitively), cut at the first parameter. */
function literalPrefix(layer: Layer): string[] {
  if (typeof layer.path !== "string" || layer.methods.length === 0) return [];
  const segments = layer.path.replace(/\/+$/, "").split("/").slice(1);
  const literal: string[] = [];
  for (const segment of segments.slice(0, DEPTH)) {
    if (/[:*?()[\]{}+]/.test(segment)) break;
    literal.push(segment.toLowerCase());
  }
  return literal;
}

/** A request path's first segments, lower-cased, without the trailing slash the router ignores. */
function requestSegments(path: string): string[] {
  return path.replace(/\/+$/, "").toLowerCase().split("/", DEPTH + 1).slice(1);
}

export interface BucketedRoutes {
  middleware: Koa.Middleware;
  /** The router a request path is dispatched to (for tests: it must match what the whole router matches). */
  routerFor(path: string): Router;
}

/**
 * Layers with a full literal prefix (`api/v2/file`) go to that bucket; layers literal for
 * two segments (`/api/file/:id`) to every bucket under `api/file` and to the `api/file`
 * bucket itself; anything else (`/healthz`, parameters early) to every bucket.
 */
export function bucketedRoutes(router: Router): BucketedRoutes {
  const keyed = router.stack.map((layer) => ({ layer, prefix: literalPrefix(layer) }));
  const subRouter = (accepts: (prefix: string[]) => boolean) => {
    const sub = new Router();
    sub.stack = keyed.filter((k) => accepts(k.prefix)).map((k) => k.layer);
    return sub;
  };
  const joinFirst = (prefix: string[], n: number) => prefix.slice(0, n).join("/");
  const general = subRouter((p) => p.length < 2);
  const byTwo = new Map<string, Router>();
  const byThree = new Map<string, Router>();
  for (const { prefix } of keyed) {
    if (prefix.length < 2) continue;
    const two = joinFirst(prefix, 2);
    if (!byTwo.has(two)) byTwo.set(two, subRouter((p) => p.length < 2 || (p.length === 2 && joinFirst(p, 2) === two)));
    if (prefix.length < 3) continue;
    const three = joinFirst(prefix, 3);
    if (!byThree.has(three)) byThree.set(three, subRouter((p) => p.length < 2 || (p.length === 2 && joinFirst(p, 2) === two) || (p.length === 3 && joinFirst(p, 3) === three)));
  }
  const middlewareOf = new Map<Router, Koa.Middleware>([general, ...byTwo.values(), ...byThree.values()].map((r) => [r, r.routes() as Koa.Middleware]));

  function routerFor(path: string): Router {
    const segments = requestSegments(path);
    return byThree.get(joinFirst(segments, 3)) ?? byTwo.get(joinFirst(segments, 2)) ?? general;
  }
  return {
    middleware: (ctx, next) => middlewareOf.get(routerFor(ctx.path))!(ctx, next),
    routerFor,
  };
}
