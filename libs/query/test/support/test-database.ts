import { randomBytes } from "node:crypto";
import knexFactory, { type Knex } from "knex";

const DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  readonly name: string;
  readonly knex: Knex;
  drop(): Promise<void>;
}

/** A fresh database `query_test_<random>` for one test file; DATABASE_URL is the admin connection. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL ?? DEFAULT_ADMIN_URL;
  const name = `query_test_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, (admin) => admin.raw("create database ??", [name]));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const knex = knexFactory({ client: "pg", connection: url.toString(), pool: { min: 0, max: 4 } });
  return {
    name,
    knex,
    async drop() {
      await knex.destroy();
      await withAdmin(adminUrl, (admin) => admin.raw("drop database if exists ?? with (force)", [name]));
    },
  };
}

async function withAdmin(url: string, action: (admin: Knex) => Promise<unknown>): Promise<void> {
  const admin = knexFactory({ client: "pg", connection: url, pool: { min: 0, max: 1 } });
  try {
    await action(admin);
  } finally {
    await admin.destroy();
  }
}
