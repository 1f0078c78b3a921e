// The gateway's HTTP server timeouts (GATEWAY_*_TIMEOUT_MS), sized for running behind an
// ingress controller or a cloud load balancer and for large uploads on slow links.
import type { Server } from "node:http";
import { z } from "zod";

export interface ServerTimeouts {
  /** An idle kept-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** A request's headers must arrive within this long. */
  headersTimeoutMs: number;
  /** A whole request (body included) must arrive within this long; 0: no limit. */
  requestTimeoutMs: number;
  /** A connection with no bytes either way for this long is closed, mid-request too; 0: never. */
  idleTimeoutMs: number;
}

const ms = (name: string) => z.coerce.number().int(`${name} must be a whole number of milliseconds`).min(0, `${name} must not be negative`);

// nginx-ingress and AWS ALB keep upstream connections idle for 60 s: the gateway must keep them
// longer, or it closes one just as the proxy sends a request on it (a sporadic 502).
export const serverTimeoutsEnvSchema = z
  .object({
    GATEWAY_KEEP_ALIVE_TIMEOUT_MS: ms("GATEWAY_KEEP_ALIVE_TIMEOUT_MS").min(1, "GATEWAY_KEEP_ALIVE_TIMEOUT_MS must be at least 1").default(65_000),
    // Above keep-alive, as Node advises: a request arriving as a kept-alive connection expires is not cut off.
    GATEWAY_HEADERS_TIMEOUT_MS: ms("GATEWAY_HEADERS_TIMEOUT_MS").optional(),
    // 0: a 100 MiB chunk on a slow link may take as long as it takes (Node's 300 s default cuts it off
    // below 2.8 Mbit/s); a stalled client is cut off by the idle timeout instead.
    GATEWAY_REQUEST_TIMEOUT_MS: ms("GATEWAY_REQUEST_TIMEOUT_MS").default(0),
    // Above the proxies' own 60 s read/idle timeouts, so those decide first behind one.
    GATEWAY_IDLE_TIMEOUT_MS: ms("GATEWAY_IDLE_TIMEOUT_MS").default(120_000),
  })
  .transform((env, ctx): ServerTimeouts => {
    const keepAliveTimeoutMs = env.GATEWAY_KEEP_ALIVE_TIMEOUT_MS;
    const headersTimeoutMs = env.GATEWAY_HEADERS_TIMEOUT_MS ?? keepAliveTimeoutMs + 1_000;
    const requestTimeoutMs = env.GATEWAY_REQUEST_TIMEOUT_MS;
    if (headersTimeoutMs <= keepAliveTimeoutMs) {
      ctx.addIssue({ code: "custom", path: ["GATEWAY_HEADERS_TIMEOUT_MS"], message: `must be above GATEWAY_KEEP_ALIVE_TIMEOUT_MS (${keepAliveTimeoutMs})` });
    }
    if (requestTimeoutMs > 0 && requestTimeoutMs < headersTimeoutMs) {
      ctx.addIssue({ code: "custom", path: ["GATEWAY_REQUEST_TIMEOUT_MS"], message: `must be 0 (no limit) or at least the headers timeout (${headersTimeoutMs})` });
    }
    return { keepAliveTimeoutMs, headersTimeoutMs, requestTimeoutMs, idleTimeoutMs: env.GATEWAY_IDLE_TIMEOUT_MS };
  });

/** Set before the server accepts connections (Node reads them per connection and request). */
export function applyServerTimeouts(server: Server, t: ServerTimeouts): void {
  server.keepAliveTimeout = t.keepAliveTimeoutMs;
  server.headersTimeout = t.headersTimeoutMs;
  server.requestTimeout = t.requestTimeoutMs;
  // No 'timeout' listener on the server: Node destroys a socket idle this long.
  server.timeout = t.idleTimeoutMs;
}
