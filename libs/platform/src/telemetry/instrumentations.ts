import { SpanStatusCode, type Span } from "@opentelemetry/api";
import type { Instrumentation } from "@opentelemetry/instrumentation";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { KoaInstrumentation, KoaLayerType } from "@opentelemetry/instrumentation-koa";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { RuntimeNodeInstrumentation } from "@opentelemetry/instrumentation-runtime-node";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";

/**
 * The HTTP instrumentation's own list (DEFAULT_QUERY_STRINGS_TO_REDACT, not exported): a list
 * given in its config replaces it, so it is repeated here (a test compares the two).
 */
const LIBRARY_REDACTED_QUERY_PARAMS = ["sig", "Signature", "AWSAccessKeyId", "X-Goog-Signature", "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token"];

/**
 * Query parameters whose values spans show as `REDACTED` (`url.query`, `url.full`): the library's,
 * and `signature` of media's presigned `/storage/v1/...` URLs, a working download credential until
 * it expires. Names match case-sensitively, as the library does.
 */
export const REDACTED_QUERY_PARAMS: readonly string[] = [...LIBRARY_REDACTED_QUERY_PARAMS, "signature"];

/**
 * When the response closes, the HTTP instrumentation sets its span's status from the status code,
 * without a message, and that replaces a message the app set before (the gateway's tracing
 * middleware names a 5xx's error). An ERROR status without a message keeps the earlier one.
 */
export function keepStatusMessage(span: Span): void {
  const setStatus = span.setStatus.bind(span);
  let message: string | undefined;
  span.setStatus = (status) => {
    if (status.message !== undefined) message = status.message;
    const keep = status.code === SpanStatusCode.ERROR && status.message === undefined && message !== undefined;
    return setStatus(keep ? { ...status, message } : status);
  };
}

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
export function autoInstrumentations(options: { runtimeMetrics?: boolean } = {}): Instrumentation[] {
  // Event-loop delay and utilization, heap and GC: only when metrics are exported (it samples
  // the event loop every few ms whether or not anything reads the figures).
  const runtime = options.runtimeMetrics ? [new RuntimeNodeInstrumentation()] : [];
  return [
    ...runtime,
    new HttpInstrumentation({
      // Health probes every few seconds would drown real traffic in traces.
      ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|livez)\b/.test(req.url ?? ""),
      redactedQueryParamsServer: [...REDACTED_QUERY_PARAMS],
      redactedQueryParams: [...REDACTED_QUERY_PARAMS],
      requestHook: keepStatusMessage,
    }),
    new UndiciInstrumentation(),
    // Router layers only: a span per plain middleware (CORS, error mapping, logging...) was
    // more than half of every gateway request's spans and told nothing the SERVER span does not.
    new KoaInstrumentation({ ignoreLayersType: [KoaLayerType.MIDDLEWARE] }),
    // The pg spans still need a parent: don't start traces from pool housekeeping.
    new PgInstrumentation({ requireParentSpan: true }),
  ];
}
