export type { ModuleContext, ModuleInstance, ServiceModule, ServiceName } from "./service-module.js";
export { loadProcessKeys, type ProcessKeys } from "./keys.js";
export { startModule, type RunningModule, type SharedInfra } from "./start-module.js";
export { runStandalone, type StandaloneOptions } from "./run-standalone.js";
export { serviceProcessConfigSchema, type ServiceProcessConfig } from "./config.js";
export { createTenantReplicaTable, addTenantAccessColumns, createReplicaTenantDirectory, upsertTenant, markTenantDeleted, tenantStorageQuota, type TenantFacts } from "./tenants/tenant-replica.js";
export { subscribeTenantReplica, type TenantHooks } from "./tenants/tenant-consumer.js";
export { contractOnlyModule } from "./contract-only-module.js";
export { listRpc, maxPageSizeOf, type ListRpcOptions } from "./list/list-rpc.js";
export { rowToMessage } from "./list/row-to-message.js";
export { listQueryErrorInterceptor } from "./list/list-error-interceptor.js";
export { tenantReplicaMigration, tenantAccessMigration, tenantStorageQuotaMigration, tenantVersionMigration } from "./tenants/tenant-replica-migration.js";
export { createPeers, createLatePeers, peersFromEnv, onBehalfOf, type Peers } from "./peers/peers.js";
export * from "./tags/index.js";
export * from "./quick-filters/index.js";
export { TeamEvent, TEAM_EVENT_TYPES, type TeamEventData, type UserTeamsChangedData, type UserAccessChangedData, type TeamSettingsChangedData } from "./teams/team-events.js";
export { createTeamAssignmentTable, createTeamReplicaTables, addTeamIdsColumn, dropTeamIdsColumn, addUserAccountColumns, dropUserAccountColumns } from "./teams/team-tables.js";
export { replicaUsers, cachedReplicaUsers, replicaCurrentUserCheck, type ReplicatedUser, type ReplicatedUserSource } from "./teams/replica-current-user.js";
export { createReplicaVersionTable, lockCustomerReplica } from "./teams/replica-versions.js";
export { cachedTeamFacts, replicaTeamFacts, settingsFromRow, teamAccessCacheMs, settingsToRow, type TeamFactsSource } from "./teams/team-facts.js";
export { createTeamAccessResolver, teamAccessForCaller, type TeamAccessResolver } from "./teams/team-access-resolver.js";
export { parseTeamIdsParam } from "./teams/team-ids-param.js";
export { teamResourceTables, tableOf, type TeamResourceTable, type TeamResourceTables } from "./teams/team-resource-tables.js";
export {
  assignOnCreate,
  assignmentsOnCreate,
  deleteResourceAssignments,
  assignmentsOfResource,
  assignmentsOfResources,
  refreshTeamIds,
  removeTeamEverywhere,
  writeAssignments,
  countsOfTeams,
  resourcesOfTeam,
  matchesAnyUuid,
  isUuid,
} from "./teams/team-assignment-store.js";
export { localTeamDirectory, replicaTeamDirectory, unknownTeams, type TeamDirectory } from "./teams/team-directory.js";
export { teamAssignmentService, updateResourceTeams, updateTeamResources, requireWritable, type TeamAssignmentDeps } from "./teams/team-assignment-service.js";
export { requireCreatorCanWrite } from "./teams/creator-access.js";
export { subscribeTeamReplica, applyTeamEvent, type TeamReplicaOptions } from "./teams/team-replica-consumer.js";
export { EVENT_INBOX_RETENTION_MS } from "./inbox-prune.js";
export { positiveIntegerFromEnv } from "./env-numbers.js";
export { createWakeSignal, schedulePeriodicJob, type PeriodicJob, type PeriodicJobOptions, type WakeSignal, type WakeSource } from "./periodic-job.js";
export { missingParameter, requireParameter } from "./errors/required-parameter.js";
export { FILE_KINDS, type FileKind } from "./files/file-kinds.js";
export { rowIdOf, customerIdOf } from "./ids/row-ids.js";
