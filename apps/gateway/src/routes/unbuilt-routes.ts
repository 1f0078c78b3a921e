// Operations the REST documents define but no service serves yet answer 501 with the error
// body and what the operation is, instead of a bare "No route" 404: a client can tell "not
// built yet" from "wrong path". The list is vendored from the routes inventory
// (documented-operations.ts, `npm run routes:vendor`); an operation that gains an RPC with a
// `google.api.http` option leaves it by itself.
import type Router from "@koa/router";
import { HttpError } from "../http/error-body.js";
import { DOCUMENTED_OPERATIONS, type DocumentedOperation } from "./documented-operations.js";
import { routeKey } from "./route-key.js";
import type { RestRoute } from "./route-table.js";
import { aTokenGuardedMethod, mountGuarded, refuseWithoutBearer } from "./bearer-refusal.js";

/** The documented operations without a route in `routes`. */
export function unbuiltOperations(routes: readonly RestRoute[], documented: readonly DocumentedOperation[] = DOCUMENTED_OPERATIONS): DocumentedOperation[] {
  const served = new Set(routes.map((r) => routeKey(r.verb, r.template.pattern)));
  return documented.filter((op) => !served.has(routeKey(op.method, op.path)));
}

/** `/api/v2/device/{id}` as a router path (`/api/v2/device/:id`), without a trailing slash. */
function routerPathOf(path: string): string {
  let i = 0;
  const routerPath = path.replace(/\{[^}]+\}/g, (_whole, offset: number) => {
    const name = `p${i++}`;
    return /[A-Za-z0-9_$]/.test(path.charAt(offset + _whole.length)) ? `:"${name}"` : `:${name}`;
  });
  return routerPath.length > 1 ? routerPath.replace(/\/+$/, "") : routerPath;
}

function answer501(op: DocumentedOperation) {
  return () => {
    throw new HttpError(501, "error.notImplemented", `${op.method} ${op.path} (${op.summary}) is documented but not built yet`, { operation: op.summary, service: op.service });
  };
}

/**
 * Literal paths go before the served routes (so `/api/file/summaryX` never reaches a served
 * `/api/file/{id}`), parameterised ones after them (so they never shadow a served literal path).
 */
export function mountUnbuiltRoutes(router: Router, operations: readonly DocumentedOperation[], mountServed: () => void): void {
  const literal = operations.filter((op) => !op.path.includes("{"));
  const parameterised = operations.filter((op) => op.path.includes("{"));
  // Once built it needs a token unless the documents make it public ("Every operation above uses
  // bearer authorization"): a request without one is refused 401 as it will be then, before the 501.
  const mount = (op: DocumentedOperation) =>
    mountGuarded(router, op.minRole === "PUBLIC" ? undefined : refuseWithoutBearer(aTokenGuardedMethod()), () =>
      router[op.method.toLowerCase() as "get" | "post" | "put" | "delete" | "patch"](routerPathOf(op.path), answer501(op)),
    );
  literal.forEach(mount);
  mountServed();
  parameterised.forEach(mount);
}
