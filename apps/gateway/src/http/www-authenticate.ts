import type { Context } from "koa";

/**
 * The challenge a 401 carries: RFC 6750 3 ("If the protected resource request does not include
 * authentication credentials or does not contain an access token that enables access ... the
 * resource server MUST include the HTTP WWW-Authenticate response header field"), with
 * error="invalid_token" when a bearer token was presented and refused; RFC 6749 5.2 for a client
 * that authenticated with HTTP Basic at the token endpoint.
 */
export function wwwAuthenticateFor(ctx: Context): string {
  const authorization = ctx.get("authorization");
  if (/^Basic\s/i.test(authorization)) return 'Basic realm="signage"';
  return /^Bearer\s/i.test(authorization) ? 'Bearer realm="signage", error="invalid_token"' : 'Bearer realm="signage"';
}
