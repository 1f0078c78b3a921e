import knexFactory from "knex";
import { describe, expect, test } from "vitest";
import { selectListRaw } from "../src/sql/select-list.js";
import type { SqlFragment } from "../src/sql/fragment.js";

// Builds SQL text only; no connection is made.
const knex = knexFactory({ client: "pg" });

/** The select list as Knex compiles it without the memo: one raw per column. */
function uncached(columns: SqlFragment[]) {
  return knex("item").select(columns.map((c) => knex.raw(c.sql, c.bindings as never[]))).toSQL().toNative();
}

function viaMemo(columns: SqlFragment[]) {
  return knex("item").select(selectListRaw(knex, columns)).toSQL().toNative();
}

const columns = (label: string): SqlFragment[] => [
  { sql: "?? as ??", bindings: ["item.id", "id"] },
  { sql: "floor(extract(epoch from ??) * 1000)::bigint as ??", bindings: ["item.created_at", "createdAt"] },
  { sql: "(select json_build_object(?::text, ??) from ?? where ?? = ?? limit 1) as ??", bindings: [label, "_p1.name", "owner as _p1", "_p1.id", "item.owner_id", "owner"] },
];

describe("select list compiled once per distinct list", () => {
  test("the same SQL and bindings as one raw per column, on first use and when reused", () => {
    const expected = uncached(columns("name"));
    expect(viaMemo(columns("name"))).toEqual(expected);
    expect(viaMemo(columns("name"))).toEqual(expected);
    expect(expected.sql).toContain('"item"."id" as "id"');
  });

  test("a value binding stays a binding, and another value is not answered from the memo", () => {
    const first = viaMemo(columns("name"));
    const second = viaMemo(columns("title"));
    expect(second).toEqual(uncached(columns("title")));
    expect(first.bindings).toContain("name");
    expect(second.bindings).toContain("title");
    expect(second.bindings).not.toContain("name");
  });

  test("an escaped question mark stays a literal", () => {
    const literal: SqlFragment[] = [{ sql: "(?? \\? ?) as ??", bindings: ["item.meta", "key", "hasKey"] }];
    const compiled = viaMemo(literal);
    expect(compiled).toEqual(uncached(literal));
    expect(compiled.sql).toContain(`("item"."meta" ? $1) as "hasKey"`);
    expect(compiled.bindings).toEqual(["key"]);
    expect(viaMemo(literal)).toEqual(compiled);
  });

  test("other list parts keep their own bindings after the memoised list", () => {
    const query = knex("item").select(selectListRaw(knex, columns("name"))).where("item.tenant", 7).limit(20).toSQL().toNative();
    expect(query.bindings).toEqual(["name", 7, 20]);
    expect(query.sql).toMatch(/where "item"\."tenant" = \$2 limit \$3$/);
  });

  test("a list binding other values is compiled as it is, each time", () => {
    const at = (iso: string): SqlFragment[] => [{ sql: "(?? > ?) as ??", bindings: ["item.created_at", new Date(iso), "recent"] }];
    expect(viaMemo(at("2026-01-01T00:00:00Z")).bindings).toEqual([new Date("2026-01-01T00:00:00Z")]);
    expect(viaMemo(at("2026-02-01T00:00:00Z")).bindings).toEqual([new Date("2026-02-01T00:00:00Z")]);
    // A Date and its ISO text would share a key; a bigint has none.
    expect(viaMemo([{ sql: "? as ??", bindings: ["2026-01-01T00:00:00.000Z", "recent"] }]).bindings).toEqual(["2026-01-01T00:00:00.000Z"]);
    expect(viaMemo([{ sql: "? as ??", bindings: [new Date("2026-01-01T00:00:00Z"), "recent"] }]).bindings).toEqual([new Date("2026-01-01T00:00:00Z")]);
    expect(viaMemo([{ sql: "? as ??", bindings: [10n, "big"] }])).toEqual(uncached([{ sql: "? as ??", bindings: [10n, "big"] }]));
  });
});
