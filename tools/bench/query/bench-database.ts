import knexFactory, { type Knex } from "knex";
import pg from "pg";
import { createTestDatabase, type TestDatabase } from "@signage/db";

export type BenchDatabase = TestDatabase;

/** A throw-away database `query_bench_<random>`, made by libs/db; DATABASE_URL (admin connection) is honoured. */
export function createBenchDatabase(): Promise<BenchDatabase> {
  return createTestDatabase({ prefix: "query_bench" });
}

/** What the library runs on. */
export function connectKnex(url: string): Knex {
  return knexFactory({ client: "pg", connection: url, pool: { min: 1, max: 2 } });
}

/** What the hand-written SQL runs on: the plain driver, no query builder. */
export function connectDriver(url: string): pg.Pool {
  return new pg.Pool({ connectionString: url, max: 2 });
}
