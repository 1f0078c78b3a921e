import type { Knex } from "knex";
import { createMigrationSource } from "./migration-source.js";
import { MIGRATIONS_TABLE } from "./migrate.js";
import { createTypeOverrides } from "./pg-types.js";
import type { DbLogger } from "./logger.js";

export interface PoolSize {
  min: number;
  max: number;
}

export interface KnexConfigInput {
  url: string;
  schema: string;
  migrationsDir?: string | URL;
  pool?: PoolSize;
  logger: DbLogger;
  /** Parse int8 as number (default true). */
  int8AsNumber?: boolean;
}

// min 0: idle services hold no connections, and DROP DATABASE in tests is not blocked by idle pool members.
const DEFAULT_POOL: PoolSize = { min: 0, max: 10 };

export function buildKnexConfig(input: KnexConfigInput): Knex.Config {
  const { url, schema, logger } = input;
  const connection: Knex.PgConnectionConfig = { connectionString: url };
  if (input.int8AsNumber !== false) connection.types = createTypeOverrides();

  return {
    client: "pg",
    connection,
    // Unqualified names resolve to the service schema; `public` stays reachable for extensions.
    searchPath: [schema, "public"],
    pool: { ...DEFAULT_POOL, ...input.pool },
    migrations: {
      schemaName: schema,
      tableName: MIGRATIONS_TABLE,
      // Deliberately no `directory`/`loadExtensions`: knex drops a custom
      // migrationSource whenever an FS option is present.
      ...(input.migrationsDir ? { migrationSource: createMigrationSource(input.migrationsDir) } : {}),
    },
    log: {
      warn: (m: unknown) => logger.warn(`knex: ${String(m)}`),
      error: (m: unknown) => logger.error(`knex: ${String(m)}`),
      deprecate: (method: string, alt: string) => logger.warn(`knex: ${method} is deprecated, use ${alt}`),
      debug: (m: unknown) => logger.debug?.(`knex: ${String(m)}`),
    },
  };
}
