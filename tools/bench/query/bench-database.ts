import { randomBytes } from "node:crypto";
import knexFactory, { type Knex } from "knex";
import pg from "pg";

const DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export interface BenchDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

/** A throw-away database `query_bench_<random>`; DATABASE_URL (admin connection) is honoured. */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const adminUrl = process.env.DATABASE_URL ?? DEFAULT_ADMIN_URL;
  const name = `query_bench_${randomBytes(5).toString("hex")}`;
  await withAdmin(adminUrl, `create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await withAdmin(adminUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}

/** What the library runs on. */
export function connectKnex(url: string): Knex {
  return knexFactory({ client: "pg", connection: url, pool: { min: 1, max: 2 } });
}

/** What the hand-written SQL runs on: the plain driver, no query builder. */
export function connectDriver(url: string): pg.Pool {
  return new pg.Pool({ connectionString: url, max: 2 });
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
