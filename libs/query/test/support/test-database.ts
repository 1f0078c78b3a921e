// One fresh database per test file, made by libs/db (DATABASE_URL is the admin connection).
import knexFactory, { type Knex } from "knex";
import { createTestDatabase as createDatabase } from "@signage/db";
import { loadDataset } from "./fixture-data.js";
import { FIXTURE_DDL } from "./fixture-registry.js";
import { SMALL_DATASET } from "./small-dataset.js";

export interface TestDatabase {
  readonly name: string;
  readonly knex: Knex;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const db = await createDatabase({ prefix: "query_test" });
  const knex = knexFactory({ client: "pg", connection: db.url, pool: { min: 0, max: 4 } });
  return {
    name: db.name,
    knex,
    async drop() {
      await knex.destroy();
      await db.drop();
    },
  };
}

/** A fresh database holding the fixture tables and the small dataset (the lists' shared ground). */
export async function createSmallDatasetDatabase(): Promise<TestDatabase> {
  const db = await createTestDatabase();
  await db.knex.raw(FIXTURE_DDL);
  await loadDataset(db.knex, SMALL_DATASET);
  return db;
}
