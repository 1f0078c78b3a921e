import pg from "pg";
import type { DbLogger } from "./logger.js";

/**
 * Runs `fn` while holding a session-level advisory lock on a dedicated
 * connection. A separate pg.Client (not the knex pool) is used so a small
 * pool (max: 1) cannot deadlock against the work done under the lock, and so
 * the lock is released by the server if this process dies mid-way.
 * Advisory locks are per database: different databases never contend.
 */
export async function withAdvisoryLock<T>(
  url: string,
  key: { namespace: string; name: string },
  logger: DbLogger,
  fn: () => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  // An idle client emits 'error' if the server drops it; without a listener that crashes the process.
  client.on("error", (err) => logger.warn(`advisory lock connection error: ${err.message}`));
  await client.connect();
  try {
    const args = [key.namespace, key.name];
    const tried = await client.query<{ ok: boolean }>(
      "SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS ok",
      args,
    );
    if (!tried.rows[0]?.ok) {
      logger.info(`waiting for lock ${key.namespace}/${key.name} (another process is migrating)`);
      await client.query("SELECT pg_advisory_lock(hashtext($1), hashtext($2))", args);
    }
    try {
      return await fn();
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext($1), hashtext($2))", args);
    }
  } finally {
    await client.end();
  }
}
