import type { Knex } from "knex";
import { withAdvisoryLock } from "./advisory-lock.js";
import { quoteIdentifier } from "./identifiers.js";
import type { DbLogger } from "./logger.js";

export const MIGRATIONS_TABLE = "knex_migrations";
const LOCK_NAMESPACE = "signage:migrate";

export interface MigrateOptions {
  knex: Knex;
  url: string;
  schema: string;
  logger: DbLogger;
  /** Absent: only the schema is ensured. */
  hasMigrations: boolean;
}

/**
 * Ensures the schema exists and applies pending migrations. Replicas starting
 * together serialise on an advisory lock: both `CREATE SCHEMA IF NOT EXISTS`
 * and knex's creation of its bookkeeping tables race (unique violations on
 * the catalog) when run concurrently, and knex's own lock table only guards
 * the migration batch, failing the loser instead of waiting.
 */
export async function migrateSchema(opts: MigrateOptions): Promise<string[]> {
  const { knex, url, schema, logger } = opts;
  return withAdvisoryLock(url, { namespace: LOCK_NAMESPACE, name: schema }, logger, async () => {
    await knex.raw(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
    if (!opts.hasMigrations) return [];

    // We are the only migrator while holding the advisory lock, so a set
    // knex lock row can only be left over from a crashed non-transactional
    // migration; clear it rather than refusing to start forever.
    await knex.migrate.forceFreeMigrationsLock();
    const [batch, applied] = (await knex.migrate.latest()) as [number, string[]];
    if (applied.length > 0) {
      logger.info(`schema ${schema}: applied ${applied.length} migration(s) in batch ${batch}: ${applied.join(", ")}`);
    } else {
      logger.debug?.(`schema ${schema}: migrations up to date`);
    }
    return applied;
  });
}
