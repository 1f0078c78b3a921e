export type { ModuleContext, ModuleInstance, ServiceModule, ServiceName } from "./service-module.js";
export { loadProcessKeys, type ProcessKeys } from "./keys.js";
export { startModule, type RunningModule, type SharedInfra } from "./start-module.js";
export { runStandalone } from "./run-standalone.js";
export { serviceProcessConfigSchema, type ServiceProcessConfig } from "./config.js";
export { createTenantReplicaTable, createReplicaTenantDirectory, upsertTenant, type TenantFacts } from "./tenants/tenant-replica.js";
export { subscribeTenantReplica, type TenantHooks } from "./tenants/tenant-consumer.js";
export { contractOnlyModule } from "./contract-only-module.js";
