/**
 * Preload for ESM auto-instrumentation. Start apps with
 *
 *   node --import tsx --import @signage/platform/register <entry>.ts
 *
 * (production runs the bundle: `node --import ./dist/register.js dist/main.js`,
 * see tools/build/bundle-service.mjs). It registers import-in-the-middle's
 * loader hook, which must be in place before koa, pg... are imported so OTel
 * can patch their ESM entry points. It does NOT start the SDK: the entry point
 * calls startTelemetry() itself, then dynamically imports the rest of the app
 * (see README).
 */
import { register } from "node:module";
import { INSTRUMENTED_MODULES } from "./instrumented-modules.js";

// Only the modules our instrumentations patch are wrapped: by default the hook
// wraps every ES module of the process (~40 MB of resident memory in a service).
register("@opentelemetry/instrumentation/hook.mjs", import.meta.url, { data: { include: [...INSTRUMENTED_MODULES] } });
