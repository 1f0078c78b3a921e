export { loadConfig, ConfigError, type Env } from "./config/load-config.js";
export { baseServiceConfigSchema, portSchema, logLevelSchema, type BaseServiceConfig } from "./config/base-schema.js";
export { createLogger, traceMixin, type Logger, type LoggerOptions } from "./logging/logger.js";
export { createService, type Service, type ServiceOptions, type Routes } from "./server/create-service.js";
export type { ListenOptions, Listening, NodeHandler } from "./server/h2c-server.js";
export { LIVENESS_SERVICE, type Readiness } from "./server/health.js";
export {
  createServiceTransport,
  createInMemoryTransport,
  type ServiceTransportOptions,
  type InMemoryTransportOptions,
} from "./client/transport.js";
export { createDirectTransport, type DirectTransportOptions } from "./client/direct-transport.js";
export { DEFAULT_KEEP_ALIVE, type KeepAliveOptions } from "./client/h2-connection.js";
export { startTelemetry, type Telemetry, type TelemetryOptions } from "./telemetry/start-telemetry.js";
export { serverTracingInterceptor } from "./telemetry/server-interceptor.js";
export { clientTracingInterceptor } from "./telemetry/client-interceptor.js";
export { headersGetter, headersSetter } from "./telemetry/headers-carrier.js";
export { traceHeaders, contextFromHeaders } from "./telemetry/trace-headers.js";
export {
  installGracefulShutdown,
  type GracefulShutdown,
  type GracefulShutdownOptions,
  type ShutdownStep,
  type ShutdownProcess,
} from "./shutdown/graceful-shutdown.js";
export { installBufferTextEncoding } from "./protobuf/buffer-text-encoding.js";
export { enumValuePrefix } from "./protobuf/enum-names.js";
export { isRequired } from "./protobuf/required-fields.js";
export { noneMatch } from "./http/entity-tags.js";
