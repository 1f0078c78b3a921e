import { Code, createContextKey, type HandlerContext } from "@connectrpc/connect";
import type { Caller } from "../caller.js";
import type { Scope } from "../scope/scope.js";
import { serviceError } from "../errors/service-error.js";
import { AuthErrorKey } from "../errors/auth-error-keys.js";

/** What the auth interceptor hands to every authenticated handler. */
export interface AuthContext {
  caller: Caller;
  scope: Scope;
}

export const authContextKey = createContextKey<AuthContext | undefined>(undefined, {
  description: "signage auth context",
});

/**
 * The caller and resolved scope of the current call. Throws Internal when absent (a PUBLIC
 * method, or a server without the interceptor), so a handler cannot query without a scope.
 */
export function requireAuth(ctx: Pick<HandlerContext, "values">): AuthContext {
  const auth = ctx.values.get(authContextKey);
  if (!auth) throw serviceError(Code.Internal, AuthErrorKey.noAuthContext, "no authenticated caller for this call");
  return auth;
}
