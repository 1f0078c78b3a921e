import knexFactory, { type Knex } from "knex";
import { assertIdentifier } from "./identifiers.js";
import { buildKnexConfig, type PoolSize } from "./knex-config.js";
import { silentLogger, type DbLogger } from "./logger.js";
import { migrateSchema } from "./migrate.js";

export interface CreateDatabaseOptions {
  /** postgres://user:pass@host:port/db */
  url: string;
  /** The service's own PostgreSQL schema, e.g. "core". */
  schema: string;
  /** Directory of `*.ts`/`*.js` ESM migrations (e.g. apps/core/migrations). Omit for schema-only. */
  migrationsDir?: string | URL;
  pool?: PoolSize;
  logger?: DbLogger;
  /** Parse int8 columns as JS numbers (default true; throws on values > 2^53). */
  int8AsNumber?: boolean;
  /** The process environment: DATABASE_POOL_MAX sizes the pool when `pool` is not given. */
  env?: Record<string, string | undefined>;
}

export interface Database {
  knex: Knex;
  schema: string;
  /** Creates the schema if missing and applies pending migrations; safe to call from concurrent replicas. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds a schema-scoped knex instance and checks connectivity (fail fast at
 * start-up). Does not migrate by itself: the composition calls `migrate()`.
 */
export async function createDatabase(opts: CreateDatabaseOptions): Promise<Database> {
  const schema = assertIdentifier("schema", opts.schema);
  const logger = opts.logger ?? silentLogger;
  const knex = knexFactory(
    buildKnexConfig({
      url: opts.url,
      schema,
      migrationsDir: opts.migrationsDir,
      pool: opts.pool,
      logger,
      int8AsNumber: opts.int8AsNumber,
      env: opts.env,
    }),
  );

  try {
    await knex.raw("SELECT 1");
  } catch (err) {
    await knex.destroy();
    throw err;
  }

  let closed: Promise<void> | undefined;
  return {
    knex,
    schema,
    async migrate() {
      await migrateSchema({ knex, url: opts.url, schema, logger, hasMigrations: opts.migrationsDir !== undefined });
    },
    close() {
      closed ??= knex.destroy();
      return closed;
    },
  };
}
