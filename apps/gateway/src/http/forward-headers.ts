import type { Context } from "koa";
import { CLIENT_ADDRESS_HEADER } from "@signage/auth";

// Headers a service needs to authenticate and authorise the call itself.
const FORWARDED = ["authorization", "x-totp", "g-recaptcha-response", "x-request-id"];

/** What a call made for this request carries: the client's headers above, and its address (never the client's own say of it). */
export function forwardHeaders(ctx: Context): Headers {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = ctx.get(name);
    if (value) headers.set(name, value);
  }
  setClientAddress(headers, ctx);
  return headers;
}

/** The client's address as Koa resolves it (the peer, or the trusted proxies' X-Forwarded-For entry: http/client-address.ts). */
export function setClientAddress(headers: Headers, ctx: Context): Headers {
  if (ctx.ip) headers.set(CLIENT_ADDRESS_HEADER, ctx.ip);
  return headers;
}
