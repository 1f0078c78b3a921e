import type { Context } from "koa";
import type { ErrorBody } from "./error-body.js";

/** The header fields an error answer carries besides its body (every error path sets them here). */
export function setErrorHeaders(ctx: Context, body: ErrorBody): void {
  // Answers about this request only: a cached 404 would hide a resource created a moment later.
  ctx.set("Cache-Control", "no-store");
  const retryAfter = retryAfterOf(body);
  if (retryAfter) ctx.set("Retry-After", retryAfter);
  if (body.status === 401) ctx.set("WWW-Authenticate", wwwAuthenticateFor(ctx));
}

/**
 * RFC 9110 10.2.3 Retry-After, for a refusal that names when to come back (429 of a locked
 * account, 503 of a busy one: details.retryAfterSeconds). Undefined otherwise.
 */
function retryAfterOf(body: ErrorBody): string | undefined {
  const seconds = body.details.retryAfterSeconds;
  if ((body.status !== 429 && body.status !== 503) || typeof seconds !== "number" || !(seconds > 0)) return undefined;
  return String(Math.ceil(seconds));
}

/**
 * The challenge a 401 carries: RFC 6750 3 ("If the protected resource request does not include
 * authentication credentials or does not contain an access token that enables access ... the
 * resource server MUST include the HTTP WWW-Authenticate response header field"), with
 * error="invalid_token" when a bearer token was presented and refused; RFC 6749 5.2 for a client
 * that authenticated with HTTP Basic at the token endpoint.
 */
function wwwAuthenticateFor(ctx: Context): string {
  const authorization = ctx.get("authorization");
  if (/^Basic\s/i.test(authorization)) return 'Basic realm="signage"';
  return /^Bearer\s/i.test(authorization) ? 'Bearer realm="signage", error="invalid_token"' : 'Bearer realm="signage"';
}
