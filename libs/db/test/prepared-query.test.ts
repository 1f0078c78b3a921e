import { afterAll, beforeAll, describe, expect, it } from "vitest";
import knexFactory, { type Knex } from "knex";
import { createTestDatabase, preparedQuery, type TestDatabase } from "../src/index.js";

describe("preparedQuery", () => {
  let db: TestDatabase;
  let knex: Knex;
  beforeAll(async () => {
    db = await createTestDatabase({ prefix: "prepared" });
    knex = knexFactory({ client: "pg", connection: db.url, pool: { min: 0, max: 2 } });
    await knex.schema.createTable("item", (t) => {
      t.integer("id").primary();
      t.text("name");
    });
    await knex("item").insert([
      { id: 1, name: "one" },
      { id: 2, name: "two" },
    ]);
  });
  afterAll(async () => {
    await knex.destroy();
    await db.drop();
  });

  const byId = preparedQuery<[id: number]>("test_item_by_id", 1, (k, id) => k("item").select("*").where("id", id).first());

  it("binds each call's arguments into the statement compiled once", async () => {
    expect(await byId.first(knex, 1)).toEqual({ id: 1, name: "one" });
    expect(await byId.first(knex, 2)).toEqual({ id: 2, name: "two" });
    expect(await byId.first(knex, 3)).toBeUndefined();
  });

  it("reports the statement to knex's query observers", async () => {
    const seen: string[] = [];
    const listener = (q: { sql: string }) => seen.push(q.sql);
    knex.on("query", listener);
    await byId.rows(knex, 1);
    knex.off("query", listener);
    expect(seen).toEqual([expect.stringMatching(/from "item" where "id" = \$1 limit \$2/)]);
  });

  it("re-prepares when a migration changed the table it reads (select *)", async () => {
    // Use every pooled connection so each holds the prepared statement.
    await Promise.all([byId.first(knex, 1), byId.first(knex, 2), byId.first(knex, 1)]);
    await knex.schema.alterTable("item", (t) => t.text("extra").defaultTo("x"));
    const rows = await Promise.all([byId.first(knex, 1), byId.first(knex, 2)]);
    expect(rows).toEqual([
      { id: 1, name: "one", extra: "x" },
      { id: 2, name: "two", extra: "x" },
    ]);
  });
});
