import type { Instrumentation } from "@opentelemetry/instrumentation";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { KoaInstrumentation } from "@opentelemetry/instrumentation-koa";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";

/**
 * The instrumentations this codebase uses: HTTP/Koa for the gateway, fetch
 * (undici), pg under knex. Imported one by one rather than through
 * `getNodeAutoInstrumentations`, which loads all ~40 instrumentation packages
 * (tens of MB of resident memory per process) just to leave most disabled.
 * Deliberately absent: fs/dns/net (a span per syscall), pino (our mixin already
 * adds trace ids), knex (duplicates the pg spans), grpc (we speak gRPC through
 * Connect, traced by our interceptors).
 *
 * The packages come with @opentelemetry/auto-instrumentations-node (hoisted to
 * the root node_modules); `register.ts` lists the modules they patch for the
 * ESM loader hook (INSTRUMENTED_MODULES) — keep both in step.
 */
export function autoInstrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({
      // Health probes every few seconds would drown real traffic in traces.
      ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|livez)\b/.test(req.url ?? ""),
    }),
    new UndiciInstrumentation(),
    new KoaInstrumentation(),
    // The pg spans still need a parent: don't start traces from pool housekeeping.
    new PgInstrumentation({ requireParentSpan: true }),
  ];
}
