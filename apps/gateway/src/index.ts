export { createGateway, type Gateway, type GatewayOptions } from "./gateway.js";
export { parseCorsOrigins } from "./http/cors.js";
export { buildRouteTable, type RestRoute } from "./routes/route-table.js";
export { generateOpenApi } from "./openapi/generate.js";
export { upstreamsByPackage, type Upstreams } from "./upstreams.js";
export { httpStatusFor, STATUS_BY_CODE, STATUS_BY_KEY } from "./http/error-table.js";
export { routeKey } from "./routes/route-key.js";
export { unbuiltOperations } from "./routes/unbuilt-routes.js";
export type { DocumentedOperation } from "./routes/documented-operations.js";
