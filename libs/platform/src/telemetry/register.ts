/**
 * Preload for ESM auto-instrumentation. Start apps with
 *
 *   node --import tsx --import @signage/platform/register <entry>.ts
 *
 * It registers import-in-the-middle's loader hook, which must be in place
 * before koa, pg... are imported so OTel can patch their ESM entry points.
 * It does NOT start the SDK: the entry point calls startTelemetry() itself,
 * then dynamically imports the rest of the app (see README).
 */
import { register } from "node:module";

register("@opentelemetry/instrumentation/hook.mjs", import.meta.url);
