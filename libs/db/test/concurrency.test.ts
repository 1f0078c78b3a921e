import { describe, expect, it } from "vitest";
import { createDatabase } from "../src/index.js";
import { useTestDatabase } from "../src/testing/vitest.js";

const migrationsDir = new URL("./fixtures/migrations/", import.meta.url);

describe("concurrent start-up", () => {
  const t = useTestDatabase({ prefix: "db_concurrency" });

  it("replicas migrating the same fresh schema at once all succeed, migrations applied once", async () => {
    const replicas = await Promise.all(
      Array.from({ length: 6 }, () => createDatabase({ url: t.url, schema: "licensing", migrationsDir, pool: { min: 0, max: 2 } })),
    );
    try {
      const results = await Promise.allSettled(replicas.map((r) => r.migrate()));
      expect(results.filter((r) => r.status === "rejected")).toEqual([]);
      const names = await replicas[0].knex("knex_migrations").orderBy("id").pluck("name");
      expect(names).toEqual(["20240101000000_create_items", "20240102000000_add_counter"]);
      expect(await replicas[0].knex("knex_migrations_lock").select("is_locked")).toEqual([{ is_locked: 0 }]);
    } finally {
      await Promise.all(replicas.map((r) => r.close()));
    }
  });

  it("works with a single-connection pool (lock is held outside the pool)", async () => {
    const db = await createDatabase({ url: t.url, schema: "integration", migrationsDir, pool: { min: 0, max: 1 } });
    try {
      await db.migrate();
      expect(await db.knex("items").count<{ c: number }[]>("* as c")).toEqual([{ c: 0 }]);
    } finally {
      await db.close();
    }
  });
});
