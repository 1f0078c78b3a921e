import pg from "pg";
import { describe, expect, it } from "vitest";
import { DEFAULT_ADMIN_URL } from "../src/connection-url.js";
import { createTestDatabase } from "../src/testing/test-database.js";

const adminUrl = process.env.DATABASE_URL ?? DEFAULT_ADMIN_URL;

async function databaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const res = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    return res.rowCount === 1;
  } finally {
    await client.end();
  }
}

describe("createTestDatabase", () => {
  it("creates <prefix>_<random> and drop() removes it even with open connections", async () => {
    const a = await createTestDatabase({ prefix: "db_helper" });
    const b = await createTestDatabase({ prefix: "db_helper" });
    expect(a.name).toMatch(/^db_helper_[a-z0-9]+_[0-9a-f]{8}$/);
    expect(a.name).not.toBe(b.name);
    expect(new URL(a.url).pathname).toBe(`/${a.name}`);

    const client = new pg.Client({ connectionString: a.url });
    client.on("error", () => {}); // FORCE terminates this session
    await client.connect();
    expect((await client.query("SELECT current_database() AS db")).rows[0].db).toBe(a.name);

    await a.drop();
    await a.drop(); // idempotent
    await b.drop();
    expect(await databaseExists(a.name)).toBe(false);
    expect(await databaseExists(b.name)).toBe(false);
    await client.end().catch(() => {});
  });

  it("rejects prefixes that are not plain identifiers", async () => {
    await expect(createTestDatabase({ prefix: "Bad-Prefix" })).rejects.toThrow(/Invalid database name/);
  });
});
