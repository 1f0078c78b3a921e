// licensing as its own process. Telemetry starts first and everything else is
// imported after it, so that http, pg and the rest are loaded already patched
// (run with `--import @signage/platform/register` for the ESM loader hook).
import { startTelemetry } from "@signage/platform/telemetry";

const telemetry = startTelemetry({ serviceName: "licensing", otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT });
const { runStandalone } = await import("@signage/runtime");
const { licensingModule } = await import("./module.js");
await runStandalone(licensingModule, process.env, { telemetry });
