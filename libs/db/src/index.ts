export { createDatabase, type CreateDatabaseOptions, type Database } from "./create-database.js";
export { poolSizeFromEnv, type PoolSize } from "./knex-config.js";
export type { DbLogger } from "./logger.js";
export { createMigrationSource, type MigrationFile } from "./migration-source.js";
export { createTypeOverrides } from "./pg-types.js";
export { preparedQuery, type PreparedQuery } from "./prepared-query.js";
export { batchedReads, type BatchedReads, type BatchedReadsOptions } from "./batched-reads.js";
export { withTransaction } from "./transaction.js";
export { newId, createIdGenerator, type IdGenerator } from "./new-id.js";
export { DEFAULT_ADMIN_URL, withDatabaseName, redactUrl } from "./connection-url.js";
export { createTestDatabase, type CreateTestDatabaseOptions, type TestDatabase } from "./testing/test-database.js";
export {
  startEmbeddedPostgres,
  type StartEmbeddedPostgresOptions,
  type EmbeddedPostgresHandle,
} from "./embedded/start-embedded-postgres.js";
