/**
 * The modules patched by the instrumentations in instrumentations.ts (http:
 * http/https; koa; pg: pg and pg-pool; undici listens on diagnostics_channel
 * and patches nothing). The ESM loader hook wraps only these (register.ts).
 */
export const INSTRUMENTED_MODULES = ["http", "https", "koa", "pg", "pg-pool"] as const;
