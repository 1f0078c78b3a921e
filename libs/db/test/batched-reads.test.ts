import { afterAll, beforeAll, describe, expect, it } from "vitest";
import knexFactory, { type Knex } from "knex";
import { batchedReads, createTestDatabase, type TestDatabase } from "../src/index.js";

interface Item {
  id: number;
  name: string;
}

describe("batchedReads (point reads of one event-loop turn as one statement)", () => {
  let db: TestDatabase;
  let knex: Knex;
  beforeAll(async () => {
    db = await createTestDatabase({ prefix: "batched" });
    knex = knexFactory({ client: "pg", connection: db.url, pool: { min: 0, max: 4 } });
    await knex.schema.createTable("item", (t) => {
      t.integer("id").primary();
      t.text("name");
    });
    await knex("item").insert(Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}` })));
  });
  afterAll(async () => {
    await knex.destroy();
    await db.drop();
  });

  /** Runs `body` and returns what it resolved to with the statements sent meanwhile. */
  async function counting<T>(body: () => Promise<T>): Promise<{ result: T; statements: { sql: string; bindings: unknown[] }[] }> {
    const statements: { sql: string; bindings: unknown[] }[] = [];
    const listener = (q: { sql: string; bindings: unknown[] }) => statements.push(q);
    knex.on("query", listener);
    try {
      return { result: await body(), statements };
    } finally {
      knex.off("query", listener);
    }
  }

  const items = (options: { maxBatch?: number; failOn?: number } = {}) =>
    batchedReads<number, Item>({
      readMany: async (ids) => {
        if (options.failOn !== undefined && ids.includes(options.failOn)) await knex.raw("select 1/0");
        return knex<Item>("item").whereIn("id", ids);
      },
      keyOf: (row) => row.id,
      maxBatch: options.maxBatch,
    });

  it("answers the reads of one turn with one statement: each its own row, a repeated key read once, a missing one undefined", async () => {
    const reads = items();
    const { result, statements } = await counting(() => Promise.all([reads.load(3), reads.load(1), reads.load(3), reads.load(42)]));
    expect(result.map((r) => r?.name)).toEqual(["item 3", "item 1", "item 3", undefined]);
    expect(statements).toHaveLength(1);
    expect(statements[0].bindings).toEqual([3, 1, 42]);
  });

  it("sends a later turn's reads in a statement of their own (never joins one already sent)", async () => {
    const reads = items();
    const { result, statements } = await counting(async () => {
      const first = reads.load(1);
      await new Promise((r) => setImmediate(r));
      await knex("item").update({ name: "renamed" }).where("id", 2);
      return [await first, await reads.load(2)];
    });
    expect(result.map((r) => r?.name)).toEqual(["item 1", "renamed"]);
    expect(statements.filter((s) => /^select/.test(s.sql))).toHaveLength(2);
  });

  it("splits a large turn into statements of at most maxBatch keys", async () => {
    const reads = items({ maxBatch: 4 });
    const { result, statements } = await counting(() => Promise.all(Array.from({ length: 10 }, (_, i) => reads.load(i + 1))));
    expect(result.every((r, i) => r?.id === i + 1)).toBe(true);
    expect(statements.map((s) => s.bindings.length)).toEqual([4, 4, 2]);
  });

  it("fails every read of a failing statement, and only those", async () => {
    const reads = items({ maxBatch: 2, failOn: 7 });
    const outcomes = await Promise.allSettled([reads.load(7), reads.load(8), reads.load(9)]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "fulfilled"]);
    expect(await reads.load(8)).toMatchObject({ id: 8 });
  });
});
