// A request without bearer credentials to an operation that needs a token is refused before the
// gateway reads anything of it (body, query, path values), so its 401 comes before any 400, 415
// or 501, and an anonymous client cannot make the gateway buffer and parse a body.
//
// The refusal is the services' own: the gateway asks the same auth interceptor (libs/auth
// auth-interceptor.ts) with a stand-in verifier that only learns a bearer token is there and never
// checks it (the service verifies it on the call). A request it would refuse for lacking one gets
// that interceptor's error, which the error mapper renders with its WWW-Authenticate challenge
// exactly as it renders the service's answer.
import type Koa from "koa";
import type Router from "@koa/router";
import type { DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError, type UnaryRequest } from "@connectrpc/connect";
import { createAuthInterceptor, methodPolicy, type TenantDirectory, type TokenVerifier } from "@signage/auth";
import { allFiles } from "@signage/contracts";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";

/** Where the interceptor got past "is there a bearer token?": the gateway stops asking there. */
const PRESENTED = Symbol("bearer credentials presented");
const stop = () => Promise.reject(PRESENTED);
const verifier: TokenVerifier = { verify: stop };
const directory: TenantDirectory = { membersOf: stop, access: stop };
const presenceCheck = createAuthInterceptor({ verifier, directory })(stop);

/** True when the interceptor asks this method's callers for a token (not PUBLIC, not refused outright for want of a role). */
export function needsToken(method: DescMethod): boolean {
  return methodPolicy(method).minRole > Role.PUBLIC;
}

/** The interceptor's answer to a call of `method` with this Authorization header, when it is "no token". */
export async function missingBearerRefusal(method: DescMethod, authorization: string): Promise<ConnectError | undefined> {
  const header = new Headers(authorization ? { authorization } : {});
  const request = { stream: false, method, header, message: undefined, contextValues: undefined } as unknown as UnaryRequest;
  try {
    await presenceCheck(request);
  } catch (err) {
    if (err instanceof ConnectError && err.code === Code.Unauthenticated) return err;
  }
  return undefined;
}

/** Koa middleware refusing a request to `method` that carries no bearer credentials. */
export function refuseWithoutBearer(method: DescMethod): Koa.Middleware {
  return async (ctx, next) => {
    const refusal = await missingBearerRefusal(method, ctx.get("authorization"));
    if (refusal) throw refusal;
    await next();
  };
}

let anyGuardedMethod: DescMethod | undefined;

/**
 * A method the interceptor guards with a token, for operations with no RPC yet (routes/unbuilt-routes.ts):
 * its refusal of a call without one does not depend on the method.
 */
export function aTokenGuardedMethod(): DescMethod {
  anyGuardedMethod ??= allFiles.flatMap((f) => f.services.flatMap((s) => s.methods)).find(needsToken);
  if (!anyGuardedMethod) throw new Error("no RPC in the contracts needs a token");
  return anyGuardedMethod;
}

/** Runs `mount`, then puts `refusal` first in every route layer it added (before its handler reads anything). */
export function mountGuarded(router: Router, refusal: Koa.Middleware | undefined, mount: () => void): void {
  const before = router.stack.length;
  mount();
  if (!refusal) return;
  for (const layer of router.stack.slice(before)) layer.stack.unshift(refusal as (typeof layer.stack)[number]);
}
