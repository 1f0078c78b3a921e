import { randomBytes } from "node:crypto";
import knexFactory, { type Knex } from "knex";
import pg from "pg";

const DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export interface BenchDatabase {
  readonly name: string;
  /** What the library runs on. */
  readonly knex: Knex;
  /** What the hand-written SQL runs on: the plain driver, no query builder. */
  readonly pool: pg.Pool;
  drop(): Promise<void>;
}

/** A throw-away database `query_bench_<random>`; DATABASE_URL (admin connection) is honoured. */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const adminUrl = process.env.DATABASE_URL ?? DEFAULT_ADMIN_URL;
  const name = `query_bench_${randomBytes(5).toString("hex")}`;
  await withAdmin(adminUrl, `create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const knex = knexFactory({ client: "pg", connection: url.toString(), pool: { min: 1, max: 2 } });
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  let dropped = false;
  return {
    name,
    knex,
    pool,
    async drop() {
      if (dropped) return;
      dropped = true;
      await Promise.allSettled([knex.destroy(), pool.end()]);
      await withAdmin(adminUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}

async function withAdmin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
