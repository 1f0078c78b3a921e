import type { Interceptor } from "@connectrpc/connect";
import type { Caller } from "../caller.js";

/**
 * Client interceptor for internal calls: sets `authorization` from `getToken()` unless the call
 * already carries one. Services authenticate internal calls with the same access tokens.
 */
export function forwardAuthInterceptor(getToken: () => string | undefined): Interceptor {
  return (next) => async (req) => {
    const token = getToken();
    if (token && !req.header.has("authorization")) req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
}

/** Per-call headers forwarding the current caller: `client.get(req, { headers: callerHeaders(caller) })`. */
export function callerHeaders(caller: Pick<Caller, "token">): Record<string, string> {
  return { authorization: `Bearer ${caller.token}` };
}
