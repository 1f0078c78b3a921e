import { afterAll, beforeAll } from "vitest";
import { createDatabase, type Database } from "../create-database.js";
import type { DbLogger } from "../logger.js";
import { createTestDatabase, type CreateTestDatabaseOptions, type TestDatabase } from "./test-database.js";

export interface UseTestDatabaseOptions extends CreateTestDatabaseOptions {
  /** When set, also opens a `Database` on this schema and runs `migrate()` in beforeAll. */
  schema?: string;
  migrationsDir?: string | URL;
  logger?: DbLogger;
}

export interface TestDatabaseHandle {
  /** Available once beforeAll has run. */
  readonly url: string;
  readonly name: string;
  /** Only when `schema` was given. */
  readonly db: Database;
}

/**
 * Registers beforeAll/afterAll in the calling suite: one fresh database per
 * test file, dropped afterwards. Access the handle inside tests/hooks only.
 */
export function useTestDatabase(opts: UseTestDatabaseOptions = {}): TestDatabaseHandle {
  let testDb: TestDatabase | undefined;
  let db: Database | undefined;

  beforeAll(async () => {
    testDb = await createTestDatabase(opts);
    if (opts.schema) {
      db = await createDatabase({
        url: testDb.url,
        schema: opts.schema,
        migrationsDir: opts.migrationsDir,
        logger: opts.logger,
      });
      await db.migrate();
    }
  });

  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useTestDatabase: ${what} is not available (outside a test, or no schema given)`);
    return value;
  };
  return {
    get url() {
      return ready(testDb, "url").url;
    },
    get name() {
      return ready(testDb, "name").name;
    },
    get db() {
      return ready(db, "db");
    },
  };
}
