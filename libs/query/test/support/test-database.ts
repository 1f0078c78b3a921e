// One fresh database per test file, made by libs/db (DATABASE_URL is the admin connection).
import knexFactory, { type Knex } from "knex";
import { createTestDatabase as createDatabase } from "@signage/db";

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
