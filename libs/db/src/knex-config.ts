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
  /** The process environment, where DATABASE_POOL_MAX is read (a `pool` given wins); without it, the default pool. */
  env?: Record<string, string | undefined>;
}

// min 0: idle services hold no connections, and DROP DATABASE in tests is not blocked by idle pool members.
const DEFAULT_POOL: PoolSize = { min: 0, max: 10 };
const DATABASE_POOL_MAX_LIMIT = 100;

/**
 * The pool's ceiling from DATABASE_POOL_MAX (1 to 100, default 10): every replica of every service
 * holds up to this many connections, and together they must stay under the server's max_connections.
 */
export function poolSizeFromEnv(env: Record<string, string | undefined>): PoolSize {
  const raw = env.DATABASE_POOL_MAX;
  if (raw === undefined || raw === "") return DEFAULT_POOL;
  const max = Number(raw);
  if (!Number.isInteger(max) || max < 1 || max > DATABASE_POOL_MAX_LIMIT) {
    throw new Error(`DATABASE_POOL_MAX must be a whole number from 1 to ${DATABASE_POOL_MAX_LIMIT}, got '${raw}'`);
  }
  return { ...DEFAULT_POOL, max };
}

export function buildKnexConfig(input: KnexConfigInput): Knex.Config {
  const { url, schema, logger } = input;
  const connection: Knex.PgConnectionConfig = { connectionString: url };
  if (input.int8AsNumber !== false) connection.types = createTypeOverrides();

  return {
    client: "pg",
    connection,
    // Unqualified names resolve to the service schema; `public` stays reachable for extensions.
    searchPath: [schema, "public"],
    pool: { ...(input.env ? poolSizeFromEnv(input.env) : DEFAULT_POOL), ...input.pool },
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
