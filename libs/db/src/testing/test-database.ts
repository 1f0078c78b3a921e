import { randomBytes } from "node:crypto";
import pg from "pg";
import { DEFAULT_ADMIN_URL, withDatabaseName } from "../connection-url.js";
import { assertIdentifier, quoteIdentifier } from "../identifiers.js";

export interface CreateTestDatabaseOptions {
  /** Server to create the database on. Default: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres. */
  adminUrl?: string;
  /** Lower-case name prefix (default "test"); helps spot leftovers on a shared CI server. */
  prefix?: string;
}

export interface TestDatabase {
  url: string;
  name: string;
  /** Idempotent; terminates remaining connections (DROP DATABASE ... WITH (FORCE), PG 13+). */
  drop(): Promise<void>;
}

/**
 * Creates `<prefix>_<random>` so parallel runs sharing one server never
 * collide. Framework-free: see `@signage/db/vitest` for the hook wrapper.
 */
export async function createTestDatabase(opts: CreateTestDatabaseOptions = {}): Promise<TestDatabase> {
  const adminUrl = opts.adminUrl ?? process.env.DATABASE_URL ?? DEFAULT_ADMIN_URL;
  const prefix = opts.prefix ?? "test";
  const name = assertIdentifier("database", `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`);

  await runAdmin(adminUrl, `CREATE DATABASE ${quoteIdentifier(name)}`);

  let dropped: Promise<void> | undefined;
  return {
    name,
    url: withDatabaseName(adminUrl, name),
    drop() {
      dropped ??= runAdmin(adminUrl, `DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
      return dropped;
    },
  };
}

async function runAdmin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
