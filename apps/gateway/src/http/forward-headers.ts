import type { Context } from "koa";

// Headers a service needs to authenticate and authorise the call itself.
const FORWARDED = ["authorization", "x-totp", "g-recaptcha-response", "x-request-id"];

export function forwardHeaders(ctx: Context): Headers {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = ctx.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
}
