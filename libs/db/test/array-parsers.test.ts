import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { createTestDatabase, createTypeOverrides, type TestDatabase } from "../src/index.js";
import { fastTextArrayParser } from "../src/array-parsers.js";

// The fast path must read every array exactly as pg's own parser does: both read the same
// values as PostgreSQL renders them.
describe("text-like array parsers", () => {
  let db: TestDatabase;
  let fast: pg.Client;
  let stock: pg.Client;
  beforeAll(async () => {
    db = await createTestDatabase({ prefix: "array_parsers" });
    fast = new pg.Client({ connectionString: db.url, types: createTypeOverrides() });
    stock = new pg.Client({ connectionString: db.url });
    await Promise.all([fast.connect(), stock.connect()]);
  });
  afterAll(async () => {
    await Promise.all([fast?.end(), stock?.end()]);
    await db?.drop();
  });

  const texts = [
    "'{}'",
    "ARRAY['promo']",
    "ARRAY['promo', 'tag-10']",
    "ARRAY['', 'x']",
    "ARRAY[NULL, 'x']::text[]",
    "ARRAY['NULL', 'null']",
    "ARRAY['a,b', 'c}', '{d', 'e f', 'g\"h', 'i\\j']",
    "ARRAY['Ünïcödé', '日本', '🙂']",
    "ARRAY[ARRAY['a', 'b'], ARRAY['c', 'd']]",
    "'[0:1]={a,b}'::text[]",
  ];
  for (const type of ["text[]", "varchar[]"]) {
    it.each(texts)(`reads %s as ${type} as pg does`, async (literal) => {
      const sql = `SELECT (${literal})::${type} AS v`;
      const [mine, theirs] = await Promise.all([fast.query(sql), stock.query(sql)]);
      expect(mine.rows[0].v).toEqual(theirs.rows[0].v);
    });
  }

  it.each([
    "'{}'::uuid[]",
    "ARRAY[gen_random_uuid()]",
    "ARRAY[gen_random_uuid(), gen_random_uuid(), gen_random_uuid()]",
    "ARRAY[gen_random_uuid(), NULL]",
    "ARRAY[ARRAY[gen_random_uuid()], ARRAY[gen_random_uuid()]]",
  ])("reads %s as pg does", async (literal) => {
    const { rows } = await stock.query(`SELECT (${literal})::text AS t`);
    const sql = `SELECT $1::uuid[] AS v`;
    const [mine, theirs] = await Promise.all([fast.query(sql, [rows[0].t]), stock.query(sql, [rows[0].t])]);
    expect(mine.rows[0].v).toEqual(theirs.rows[0].v);
  });

  it("leaves quoted and nested values to the fallback", () => {
    const seen: string[] = [];
    const parse = fastTextArrayParser((v) => (seen.push(v), "fallback"));
    expect(parse('{"a b",c}')).toBe("fallback");
    expect(parse("{{a},{b}}")).toBe("fallback");
    expect(parse("[0:1]={a,b}")).toBe("fallback");
    expect(parse("{a,NULL}")).toEqual(["a", null]);
    expect(seen).toEqual(['{"a b",c}', "{{a},{b}}", "[0:1]={a,b}"]);
  });
});
