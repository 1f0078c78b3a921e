// OAuth 2.0 edge (RFC 6749 form posts). The token logic lives in core's
// AuthService; this only translates the form and the answer. Failures carry
// RFC 6749 `error`/`error_description` next to the platform's `message`/`key`
// so both OAuth client libraries and platform clients can read them.
import type Router from "@koa/router";
import type { Context } from "koa";
import { ConnectError } from "@connectrpc/connect";
import { AuthService } from "@signage/contracts/signage/core/v1/auth_pb";
import type { Upstreams } from "../upstreams.js";
import { readFormBody } from "../http/read-body.js";
import { AuthErrorKey } from "@signage/auth";
import { errorBodyFor, HttpError } from "../http/error-body.js";
import { responseAbortSignal } from "../http/response-abort-signal.js";
import { setClientAddress } from "../http/forward-headers.js";
import { setErrorHeaders } from "../http/error-headers.js";

const FORM_LIMIT = 16 * 1024;

/**
 * RFC 6749 2.3.1: client id and secret, form-urlencoded, joined by ':' and base64-encoded. A Basic
 * header that is not that is a client authentication failure (401 invalid_client), not a 500.
 */
function basicCredentials(header: string): { id: string; secret: string } | undefined {
  const m = /^Basic\s+(.+)$/i.exec(header);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  try {
    if (colon < 0) throw new URIError("no ':'");
    return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    throw new HttpError(401, "oauth.error.invalid_client", "Malformed HTTP Basic client credentials (RFC 6749 2.3.1: base64 of urlencoded id ':' urlencoded secret)");
  }
}

function oauthErrorCode(key: string): string {
  // RFC 6749 5.2 names no code for a throttled account; this one is what OAuth servers commonly send with 429.
  if (key === AuthErrorKey.tooManyAttempts) return "too_many_attempts";
  // RFC 6749 4.1.2.1 names it for the authorization endpoint; servers use it here too for "retry shortly".
  if (key === AuthErrorKey.busy) return "temporarily_unavailable";
  return key.startsWith("oauth.error.") ? key.slice("oauth.error.".length) : "invalid_request";
}

export function mountOAuthRoutes(router: Router, upstreams: Upstreams, callTimeoutMs: number): void {
  const transport = upstreams.transportFor(AuthService);

  router.post("/oauth/token", async (ctx) => {
    // RFC 6749 5.1: token responses carry Cache-Control: no-store and Pragma: no-cache.
    ctx.set("Cache-Control", "no-store");
    ctx.set("Pragma", "no-cache");
    try {
      const form = await readFormBody(ctx, FORM_LIMIT);
      refuseRepeatedParameters(form);
      const basic = basicCredentials(ctx.get("authorization"));
      // RFC 6749 2.3: "The client MUST NOT use more than one authentication method in each request."
      if (basic && (form.has("client_id") || form.has("client_secret"))) {
        throw new HttpError(400, "oauth.error.invalid_request", "Send the client's credentials once: in HTTP Basic or in the form, not both (RFC 6749 2.3)");
      }
      const opt = (name: string) => form.get(name) ?? undefined;
      // A client gone while its login waits for a password check leaves core's queue.
      // Core counts password guesses per username and client address (attempt-throttle.ts).
      const res = await transport.unary(AuthService.method.issueToken, responseAbortSignal(ctx), callTimeoutMs, setClientAddress(new Headers(), ctx), {
        grantType: form.get("grant_type") ?? "",
        username: opt("username"),
        password: opt("password"),
        refreshToken: opt("refresh_token"),
        clientId: basic?.id ?? opt("client_id"),
        clientSecret: basic?.secret ?? opt("client_secret"),
        totp: opt("totp") ?? (ctx.get("x-totp") || undefined),
      });
      const t = res.message;
      ctx.body = {
        access_token: t.accessToken,
        token_type: t.tokenType,
        expires_in: Number(t.expiresIn),
        ...(t.refreshToken ? { refresh_token: t.refreshToken } : {}),
      };
    } catch (err) {
      answerOAuthError(ctx, err);
    }
  });

  router.post("/oauth/revoke", async (ctx) => {
    const form = await readFormBody(ctx, FORM_LIMIT);
    try {
      refuseRepeatedParameters(form);
    } catch (err) {
      return answerOAuthError(ctx, err);
    }
    const token = form.get("token");
    // RFC 7009 2.1: token is REQUIRED; its absence is invalid_request (2.2.1, RFC 6749 5.2).
    if (!token) return answerOAuthError(ctx, new HttpError(400, "oauth.error.invalid_request", "token is required (RFC 7009 2.1)"));
    try {
      await transport.unary(AuthService.method.revokeToken, undefined, callTimeoutMs, undefined, { token });
    } catch (err) {
      // RFC 7009: an unknown token is not an error for the client.
      if (!(err instanceof ConnectError)) throw err;
    }
    ctx.status = 200;
    ctx.body = {};
  });
}

/** RFC 6749 3.1: "Request and response parameters MUST NOT be included more than once" (which value would count?). */
function refuseRepeatedParameters(form: URLSearchParams): void {
  const seen = new Set<string>();
  for (const name of form.keys()) {
    if (seen.has(name)) throw new HttpError(400, "oauth.error.invalid_request", `Parameter '${name}' is sent more than once (RFC 6749 3.1)`);
    seen.add(name);
  }
}

/** An OAuth endpoint's failure: the platform's error body with RFC 6749 `error`/`error_description`, and its headers. */
function answerOAuthError(ctx: Context, err: unknown): void {
  const { body, unexpected } = errorBodyFor(err);
  if (unexpected) throw err;
  ctx.status = body.status;
  ctx.body = { ...body, error: oauthErrorCode(body.key), error_description: body.message };
  setErrorHeaders(ctx, body);
}
