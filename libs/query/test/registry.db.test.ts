import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { applyFilter, defineResource, indexStatements, type FieldSpec } from "../src/index.js";
import { FIXTURE_DDL, contentResource, folderResource, itemResource } from "./support/fixture-registry.js";
import { createTestDatabase, type TestDatabase } from "./support/test-database.js";

describe("defineResource checks declarations at start-up", () => {
  const define = (fields: Record<string, FieldSpec>, extra: object = {}) => () => defineResource({ table: "thing", fields, ...extra });
  test.each([
    ["a field name that is not an identifier", define({ "bad-name": { type: "string" } }), "field name must be an identifier"],
    ["a column that is not an identifier", define({ name: { type: "string", column: "x; drop" } }), "column of field 'name'"],
    ["an enum without values", define({ kind: { type: "enum", values: [] } }), "enum field 'kind' needs values"],
    ["computed placeholders not matching columns", define({ n: { type: "number", computed: { sql: "?? + ??", columns: ["a"] } } }), "2 '??' placeholders"],
    ["a value placeholder in computed SQL", define({ n: { type: "number", computed: { sql: "?? + ?", columns: ["a"] } } }), "only '??'"],
    ["a folder field declared twice", define({ parentId: { type: "id" } }, { folder: { parentField: "parentId", pathField: "path" } }), "declared twice"],
    ["a path that is not dotted", define({ n: { type: "string", path: "name" } }), "path must be a dotted path"],
    ["a path field with a column", define({ n: { type: "string", path: "a.b", column: "n" } }), "a path field has no column"],
    ["a default sort on an unknown field", define({ name: { type: "string" } }, { defaultSort: ["nmae,asc"] }), "defaultSort names unknown field 'nmae'"],
    [
      "a relation to something else than a resource",
      define({ other: { type: "relation", cardinality: "one", target: { kind: "resource", name: "x" }, localColumn: "a", targetColumn: "b" } }),
      "must target a resource",
    ],
  ])("%s", (_, action, message) => {
    expect(action).toThrow(message);
  });

  test("defaults: id field, snake_case columns, alias = table base name", () => {
    const resource = defineResource({ table: "core.device_group", fields: { deviceGroupPath: { type: "folderPath" } } });
    expect(resource.alias).toBe("device_group");
    expect(resource.fields.get("id")).toMatchObject({ type: "id", column: "id" });
    expect(resource.fields.get("deviceGroupPath")).toMatchObject({ column: "device_group_path", selectable: true, searchable: true, sortable: false });
  });
});

describe("indexStatements: the indexes the filters rely on", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    await db.knex.raw(FIXTURE_DDL);
    for (const resource of [itemResource, folderResource, contentResource]) {
      for (const statement of indexStatements(resource)) await db.knex.raw(statement.sql, statement.bindings as never[]);
    }
  });
  afterAll(async () => db?.drop());

  test("the item registry asks for tenant, trigram, GIN and team indexes", () => {
    const created = indexStatements(itemResource).map((s) => db.knex.raw(s.sql, s.bindings as never[]).toQuery());
    expect(created).toEqual([
      "create extension if not exists pg_trgm",
      'create index if not exists "item_customer_id_id_btree_idx" on "item" ("customer_id", "id")',
      'create index if not exists "item_name_trgm_idx" on "item" using gin ("name" gin_trgm_ops)',
      'create index if not exists "item_tags_gin_idx" on "item" using gin ("tags")',
      'create index if not exists "item_customer_id_folder_id_id_btree_idx" on "item" ("customer_id", "folder_id", "id")',
      'create index if not exists "item_folder_path_gin_idx" on "item" using gin ("folder_path")',
      'create index if not exists "item_team_assignment_resource_id_team_id_btree_idx" on "item_team_assignment" ("resource_id", "team_id")',
      'create index if not exists "item_team_assignment_team_id_resource_id_btree_idx" on "item_team_assignment" ("team_id", "resource_id")',
    ]);
  });

  // With sequential scans disabled the planner still has to find an index the predicate can use.
  test.each([
    ["tags:red", "item_tags_gin_idx"],
    ["tags∈red%2Cblue", "item_tags_gin_idx"],
    ["folderPath:f1", "item_folder_path_gin_idx"],
    ["name:obby", "item_name_trgm_idx"],
    ["name^Lob", "item_name_trgm_idx"],
    ["folderId=f1", "item_customer_id_folder_id_id_btree_idx"],
    ["teamAssignments.team.id=t1", "item_team_assignment_team_id_resource_id_btree_idx"],
  ])("%s can use %s", async (search, index) => {
    const plan = await db.knex.transaction(async (trx) => {
      await trx.raw("set local enable_seqscan = off");
      const query = applyFilter(trx("item").select("id"), itemResource, search).toSQL();
      const rows = await trx.raw(`explain ${query.sql}`, query.bindings as never[]);
      return (rows.rows as { "QUERY PLAN": string }[]).map((row) => row["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain(index);
  });
});
