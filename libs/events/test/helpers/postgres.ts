import knexFactory, { type Knex } from "knex";
import { DATABASE_URL, uniqueToken } from "./env.js";

export interface TestDatabase {
  knex: Knex;
  drop(): Promise<void>;
}

/** A throwaway database on the shared server; drop() removes it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `events_test_${uniqueToken()}`;
  const admin = knexFactory({ client: "pg", connection: DATABASE_URL, pool: { min: 0, max: 1 } });
  await admin.raw("create database ??", [name]);
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  const knex = knexFactory({ client: "pg", connection: url.toString(), pool: { min: 0, max: 5 } });
  return {
    knex,
    async drop() {
      await knex.destroy();
      await admin.raw("drop database if exists ?? with (force)", [name]);
      await admin.destroy();
    },
  };
}
