import type Koa from "koa";

const MAX_TRUSTED_PROXIES = 16;

/**
 * `GATEWAY_TRUSTED_PROXIES` (0..16, default 0): how many proxies in front of the gateway append the
 * address they received a request from to X-Forwarded-For (an ingress controller or a load balancer:
 * usually 1). The client's address is then the entry the outermost of them added; entries left of
 * it are the client's own say and are ignored. With 0 the header is ignored altogether and the
 * client is the connection's peer. Too high a number lets clients choose their address.
 */
export function trustedProxiesFrom(env: Record<string, string | undefined>): number {
  const raw = env.GATEWAY_TRUSTED_PROXIES?.trim();
  if (!raw) return 0;
  const value = /^\d{1,2}$/.test(raw) ? Number(raw) : NaN;
  if (!(value <= MAX_TRUSTED_PROXIES)) throw new Error(`GATEWAY_TRUSTED_PROXIES must be a whole number of proxies from 0 to ${MAX_TRUSTED_PROXIES}, got '${raw}'`);
  return value;
}

/** Koa's settings for them: X-Forwarded-For read only with proxies, and only their entries of it. */
export function proxySettings(trustedProxies: number): Pick<Koa, "proxy" | "maxIpsCount"> {
  return { proxy: trustedProxies > 0, maxIpsCount: trustedProxies };
}
