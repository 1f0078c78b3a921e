import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../src/index.js";
import { createTestDatabase, type TestDatabase } from "../src/testing/test-database.js";

const migrationsDir = new URL("./fixtures/migrations/", import.meta.url);

describe("createDatabase", () => {
  let testDb: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase({ prefix: "db_create" });
    db = await createDatabase({ url: testDb.url, schema: "core", migrationsDir });
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });

  it("creates the schema and runs .ts ESM migrations into it", async () => {
    await db.migrate();
    const tables = await db.knex("information_schema.tables")
      .where({ table_schema: "core" })
      .orderBy("table_name")
      .pluck("table_name");
    expect(tables).toEqual(["items", "knex_migrations", "knex_migrations_lock"]);

    const names = await db.knex("knex_migrations").orderBy("id").pluck("name");
    expect(names).toEqual(["20240101000000_create_items", "20240102000000_add_counter"]);

    const inPublic = await db.knex("information_schema.tables").where({ table_schema: "public" }).pluck("table_name");
    expect(inPublic).toEqual([]);
  });

  it("is idempotent", async () => {
    await db.migrate();
    expect(await db.knex("knex_migrations").count<{ count: number }[]>("* as count")).toEqual([{ count: 2 }]);
  });

  it("parses int8 as number without touching the global pg parser", async () => {
    await db.knex("items").insert({ id: "0190a6f0-0000-7000-8000-000000000001", name: "a", counter: 41 });
    const row = await db.knex("items").first("counter");
    expect(row).toEqual({ counter: 41 });
    const [{ n }] = await db.knex.raw("SELECT count(*) AS n FROM items").then((r) => r.rows);
    expect(n).toBe(1);
    await expect(db.knex.raw("SELECT 9007199254740993::int8 AS big")).rejects.toThrow(/MAX_SAFE_INTEGER/);

    const pg = (await import("pg")).default;
    expect(pg.types.getTypeParser(20, "text")("5")).toBe("5");
  });

  it("can keep int8 as string when asked", async () => {
    const raw = await createDatabase({ url: testDb.url, schema: "core", int8AsNumber: false });
    try {
      const { rows } = await raw.knex.raw("SELECT 5::int8 AS v");
      expect(rows[0].v).toBe("5");
    } finally {
      await raw.close();
    }
  });

  it("without migrationsDir only ensures the schema", async () => {
    const bare = await createDatabase({ url: testDb.url, schema: "reporting" });
    try {
      await bare.migrate();
      const schemas = await bare.knex("information_schema.schemata").where({ schema_name: "reporting" }).pluck("schema_name");
      expect(schemas).toEqual(["reporting"]);
      const tables = await bare.knex("information_schema.tables").where({ table_schema: "reporting" }).pluck("table_name");
      expect(tables).toEqual([]);
    } finally {
      await bare.close();
    }
  });

  it("rejects schema names that would need quoting", async () => {
    await expect(createDatabase({ url: testDb.url, schema: 'core"; drop' })).rejects.toThrow(/Invalid schema/);
  });

  it("fails fast on an unreachable database", async () => {
    const url = new URL(testDb.url);
    url.pathname = "/does_not_exist_xyz";
    await expect(createDatabase({ url: url.toString(), schema: "core" })).rejects.toThrow(/does not exist/);
  });

  it("reports a missing migrations directory clearly", async () => {
    const broken = await createDatabase({ url: testDb.url, schema: "media", migrationsDir: "/nonexistent/migrations" });
    try {
      await expect(broken.migrate()).rejects.toThrow(/Cannot read migrations directory/);
    } finally {
      await broken.close();
    }
  });
});
