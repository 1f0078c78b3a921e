export { startPlatform, TEST_ADMIN, type PlatformOptions, type TestPlatform } from "./platform.js";
export { createHttpClient, type HttpClient, type HttpResponse, type RequestOptions } from "./http-client.js";
export { createCustomer, createUser, type TenantUser } from "./fixtures.js";
export { eventually } from "./eventually.js";
export { bodyMessage, requiredInBody, requiredQuery, routesOf } from "./required-inputs.js";
