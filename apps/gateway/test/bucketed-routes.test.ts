// The bucketed dispatch must pick, for any path, a router that matches exactly the layers the
// whole router matches, in the same order: precedence (literal 501 placeholders before served
// routes, parameterised ones after) depends on it.
import { describe, expect, it } from "vitest";
import Router from "@koa/router";
import { createRouterTransport } from "@connectrpc/connect";
import { allFiles } from "@signage/contracts";
import { createGateway, upstreamsByPackage } from "../src/index.js";
import { bucketedRoutes } from "../src/routes/bucketed-routes.js";

const silent = { info() {}, warn() {}, error() {} };
const { router } = createGateway({ files: allFiles, upstreams: upstreamsByPackage(Object.fromEntries(["core", "media", "integration", "reporting", "licensing"].map((name) => [name, createRouterTransport(() => {})]))), logger: silent, extraRoutes: (r) => r.get("/api/:anything/early-param", () => {}) });
const buckets = bucketedRoutes(router);

/** A concrete path for a layer's pattern: each parameter filled in. */
const samplePath = (pattern: string, value: string) => pattern.replace(/:("[^"]+"|\w+)/g, value);

function paths(): string[] {
  const out = new Set<string>(["/", "/nowhere", "/api", "/api/v2", "/api/v2/nothing/here", "/API/V2/FILE", "/api/file/", "/api/x/early-param", "/openapi.json/"]);
  for (const layer of router.stack) {
    if (typeof layer.path !== "string") continue;
    for (const value of ["123", "summary", "a.b"]) {
      const path = samplePath(layer.path, value);
      out.add(path);
      out.add(`${path}/`);
      out.add(path.toUpperCase());
      out.add(`${path}/extra`);
    }
  }
  return [...out];
}

const ids = (layers: Router["stack"]) => layers.map((l) => router.stack.indexOf(l));

describe("bucketed route dispatch", () => {
  it("matches, for every mounted route's paths and method, the same layers in the same order as the whole router", () => {
    const all = paths();
    expect(all.length).toBeGreaterThan(500);
    for (const path of all) {
      const sub = buckets.routerFor(path);
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        const whole = router.match(path, method);
        const bucket = sub.match(path, method);
        expect({ path, method, layers: ids(bucket.path), route: bucket.route }).toEqual({ path, method, layers: ids(whole.path), route: whole.route });
      }
    }
  });

  it("tests a small share of the layers for a deep path", () => {
    expect(buckets.routerFor("/api/v2/file/123").stack.length).toBeLessThan(router.stack.length / 5);
  });
});
