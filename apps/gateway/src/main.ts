// The gateway as its own process (cluster composition, Kubernetes): reaches
// each service over gRPC at <SERVICE>_URL. Telemetry starts before koa and
// http are imported, so their auto-instrumentation applies.
import { startTelemetry } from "@signage/platform/telemetry";

const telemetry = startTelemetry({ serviceName: "gateway", otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT });
const { runGateway } = await import("./run-gateway.js");
runGateway(process.env, telemetry);
