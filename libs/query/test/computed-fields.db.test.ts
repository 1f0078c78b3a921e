// Computed fields in sort and search: a value completed after the query
// (completedAfterQuery) and a constant (no columns) are never sortable, the first
// not searchable either (400 naming it, never a 500 from PostgreSQL); computed
// `json` values (json_build_object) take `=NULL` / `=!NULL` like jsonb columns.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { applyFilter, defineResource, InvalidFilterError, InvalidSortError, planList, runList, tenantScope, type ListQueryError } from "../src/index.js";
import { isRelation } from "../src/registry/resource.js";
import { SEED } from "./support/seed-quotes.js";
import { createSmallDatasetDatabase, type TestDatabase } from "./support/test-database.js";

const contentWithSummary = defineResource({
  table: "content",
  fields: {
    name: { type: "string" },
    // json (not jsonb), null when the content has no name.
    summary: { type: "json", computed: { sql: "case when ?? is not null then json_build_object('name', ??) end", columns: ["name", "name"] } },
  },
});

const item = defineResource({
  table: "item",
  tenantColumn: "customer_id",
  defaultSort: ["name,asc"],
  fields: {
    name: { type: "string" },
    weight: { type: "number", sqlType: "integer" },
    // Filled in per caller after the query, like a list's readOnly.
    readOnly: { type: "boolean", computed: { sql: "false", columns: [] }, completedAfterQuery: true },
    zero: { type: "number", sqlType: "integer", computed: { sql: "0", columns: [] } },
    one: { type: "number", sqlType: "integer", computed: { sql: "1", columns: [] } },
    off: { type: "boolean", computed: { sql: "false", columns: [] } },
    info: { type: "json" },
    infoAsJson: { type: "json", computed: { sql: "??::json", columns: ["info"] } },
    nameObject: { type: "json", computed: { sql: "json_build_object('name', ??)", columns: ["name"] } },
    emptyObject: { type: "json", computed: { sql: "json_build_object()", columns: [] } },
    content: { type: "relation", cardinality: "one", target: contentWithSummary, localColumn: "content_id", targetColumn: "id" },
  },
});

let db: TestDatabase;
beforeAll(async () => {
  db = await createSmallDatasetDatabase();
});
afterAll(async () => db?.drop());

function rejection(action: () => unknown): ListQueryError {
  try {
    action();
  } catch (error) {
    return error as ListQueryError;
  }
  throw new Error("expected a rejection");
}

const sortableNames = () => [...item.fields.values()].filter((f) => !isRelation(f) && f.sortable).map((f) => f.name);

describe(`${SEED.sort} ${SEED.teamParams}`, () => {
  test("sorting on a field completed after the query is 400 sort.error.invalid naming it; the sortable fields listed leave it out", () => {
    const error = rejection(() => planList(item, { sort: "readOnly,asc" }));
    expect(error).toBeInstanceOf(InvalidSortError);
    expect(error.key).toBe("sort.error.invalid");
    expect(error.message).toContain("'readOnly' is computed per caller after the query, so it cannot be sorted on; sortable fields: id, name, weight");
    expect(error.message).not.toMatch(/sortable fields:.*readOnly/);
  });

  test("searching it is 400 search.error.invalid naming it, whatever the operator", () => {
    for (const search of ["readOnly=true", "readOnly≠false", "readOnly=NULL", "name:a,readOnly=true"]) {
      const error = rejection(() => planList(item, { search }));
      expect(error, search).toBeInstanceOf(InvalidFilterError);
      expect(error.key).toBe("search.error.invalid");
      expect(error.message).toContain("'readOnly' is computed per caller after the query, so search cannot compare it");
      expect(error.details).toMatchObject({ parameter: "search", field: "readOnly" });
    }
    expect(rejection(() => planList(item, { quickFilter: "readOnly=true" })).details).toMatchObject({ parameter: "quickFilter", field: "readOnly" });
  });

  test("it stays selectable", () => {
    expect(planList(item, { select: "name,readOnly" }).selection.fields.map((f) => f.field.name)).toContain("readOnly");
  });

  test("a constant computed field (no columns) is not sortable: 400, never a literal in ORDER BY (`false` fails, `1` would sort by a column)", () => {
    for (const field of ["zero", "one", "off"]) {
      const error = rejection(() => planList(item, { sort: `${field},desc` }));
      expect(error.key, field).toBe("sort.error.invalid");
      expect(error.message).toContain(`'${field}' cannot be sorted on`);
    }
    expect(sortableNames()).toEqual(["id", "name", "weight"]);
  });

  test("every field offered as sortable sorts on PostgreSQL, both ways", async () => {
    for (const field of sortableNames()) {
      for (const direction of ["asc", "desc"]) {
        const result = await runList(db.knex, planList(item, { sort: `${field},${direction}` }), { scope: tenantScope([1]) });
        expect(result.content.length, `${field},${direction}`).toBe(5);
      }
    }
  });

  test("constants stay searchable (their SQL compares fine)", async () => {
    const matching = async (search: string) => (await applyFilter(db.knex("item").select("id").orderBy("id"), item, search)).map((r: { id: string }) => r.id);
    expect(await matching("zero=0")).toEqual(["i1", "i2", "i3", "i4", "i5"]);
    expect(await matching("off=true")).toEqual([]);
  });

  test("defineResource refuses a sortable or searchable field completed after the query, and a sortable constant", () => {
    const define = (spec: object) => () => defineResource({ table: "thing", fields: { f: { type: "boolean", computed: { sql: "false", columns: [] }, ...spec } } });
    expect(define({ completedAfterQuery: true, sortable: true })).toThrow("completed after the query cannot be sortable or searchable");
    expect(define({ completedAfterQuery: true, searchable: true })).toThrow("completed after the query cannot be sortable or searchable");
    expect(define({ sortable: true })).toThrow("without columns it is a constant");
  });
});

describe(SEED.specialValues, () => {
  const matching = async (search: string) => (await applyFilter(db.knex("item").select("id").orderBy("id"), item, search)).map((r: { id: string }) => r.id);

  test.each([
    // i1 {a,nested}, i2 JSON null, i3 SQL null, i4 {}, i5 [] — as the jsonb column `info=NULL` does.
    ["infoAsJson=NULL", ["i2", "i3", "i4", "i5"]],
    ["infoAsJson=!NULL", ["i1"]],
    ["info=NULL", ["i2", "i3", "i4", "i5"]],
    ["nameObject=NULL", []],
    ["nameObject=!NULL", ["i1", "i2", "i3", "i4", "i5"]],
    ["emptyObject=NULL", ["i1", "i2", "i3", "i4", "i5"]],
    ["emptyObject=!NULL", []],
    // Through a relation (EXISTS): c1 and c2 both have names; i3 and i5 have no content.
    ["content.summary=NULL", ["i3", "i5"]],
    ["content.summary=!NULL", ["i1", "i2", "i4"]],
  ])("a computed json value: %s", async (search, expected) => {
    expect(await matching(search)).toEqual(expected);
  });
});
