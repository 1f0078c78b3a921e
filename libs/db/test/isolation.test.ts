import { describe, expect, it } from "vitest";
import { createDatabase } from "../src/index.js";
import { useTestDatabase } from "../src/testing/vitest.js";

const migrationsDir = new URL("./fixtures/migrations/", import.meta.url);

describe("searchPath isolation", () => {
  const t = useTestDatabase({ prefix: "db_isolation" });

  it("two services' unqualified `items` tables live apart in one database", async () => {
    const core = await createDatabase({ url: t.url, schema: "core", migrationsDir });
    const media = await createDatabase({ url: t.url, schema: "media", migrationsDir });
    try {
      await core.migrate();
      await media.migrate();

      await core.knex("items").insert({ id: "0190a6f0-0000-7000-8000-000000000001", name: "from core" });
      await media.knex("items").insert([
        { id: "0190a6f0-0000-7000-8000-000000000002", name: "from media 1" },
        { id: "0190a6f0-0000-7000-8000-000000000003", name: "from media 2" },
      ]);

      expect(await core.knex("items").pluck("name")).toEqual(["from core"]);
      expect(await media.knex("items").orderBy("name").pluck("name")).toEqual(["from media 1", "from media 2"]);
      // Each schema keeps its own migration history.
      expect(await core.knex("knex_migrations").count<{ c: number }[]>("* as c")).toEqual([{ c: 2 }]);
      expect(await media.knex("knex_migrations").count<{ c: number }[]>("* as c")).toEqual([{ c: 2 }]);
      // And the search_path actually in effect on pooled connections:
      const { rows } = await media.knex.raw("SHOW search_path");
      expect(rows[0].search_path).toBe("media, public");
    } finally {
      await core.close();
      await media.close();
    }
  });
});
