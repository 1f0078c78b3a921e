// Browser clients on another origin (a web console, a customer's own integration page) may call
// the API when the operator names their origins (GATEWAY_CORS_ORIGINS). None are named by
// default: without an allowlist the gateway sends no CORS headers and browsers keep other
// origins out. Tokens travel in the Authorization header, never cookies, so no credentials mode.
import type { Middleware } from "koa";

const ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE";
// What clients of this API send: bearer token, JSON or multipart bodies, the sensitive-call
// headers, byte ranges and revalidation for downloads (a player resuming or revalidating cached media).
const ALLOWED_HEADERS = "Authorization, Content-Type, X-Totp, G-Recaptcha-Response, Range, If-Range, If-None-Match, Traceparent, X-Request-Id";
// What they need to read besides the CORS-safelisted response headers (ETag: to revalidate or resume).
const EXPOSED_HEADERS = "Content-Disposition, Content-Range, Accept-Ranges, Content-Length, ETag, Retry-After, WWW-Authenticate, X-Trace-Id";
const PREFLIGHT_MAX_AGE_S = "600";

const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:[0-9]{1,5})?$/;

/**
 * `*` allows any origin; otherwise exact origins such as `https://console.example.com`
 * (scheme and host, lower case as browsers send them). Anything else is a configuration
 * mistake that would silently never match (or, as `null`, match sandboxed pages): refused at start.
 */
export function parseCorsOrigins(value: string | undefined): string[] {
  const origins = (value ?? "")
    .split(",")
    .map((origin) => origin.trim().replace(/\/+$/, "").toLowerCase())
    .filter((origin) => origin !== "");
  const wrong = origins.filter((origin) => origin !== "*" && !ORIGIN.test(origin));
  if (wrong.length > 0) throw new Error(`GATEWAY_CORS_ORIGINS: not an origin (scheme://host[:port]) or *: ${wrong.join(", ")}`);
  return origins;
}

export function corsMiddleware(allowedOrigins: readonly string[]): Middleware {
  const any = allowedOrigins.includes("*");
  const allowed = new Set(allowedOrigins);
  return async (ctx, next) => {
    if (allowed.size === 0) return next();
    // Answers differ by Origin (even without one), so a shared cache must key on it.
    if (!any) ctx.vary("Origin");
    const origin = ctx.get("origin");
    if (!origin || (!any && !allowed.has(origin))) return next();
    ctx.set("Access-Control-Allow-Origin", any ? "*" : origin);
    if (ctx.method === "OPTIONS" && ctx.get("access-control-request-method")) {
      ctx.set("Access-Control-Allow-Methods", ALLOWED_METHODS);
      ctx.set("Access-Control-Allow-Headers", ALLOWED_HEADERS);
      ctx.set("Access-Control-Max-Age", PREFLIGHT_MAX_AGE_S);
      ctx.status = 204;
      return;
    }
    ctx.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    return next();
  };
}
