import type { Knex } from "knex";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  allScopes,
  FilterParseError,
  parseFilter,
  planList,
  readOnlyThroughTeams,
  runList,
  teamVisibility,
  tenantScope,
  toPageResponse,
  type ListParams,
  type ListScope,
} from "../src/index.js";
import { folderResource, itemResource } from "./support/fixture-registry.js";
import { SEED } from "./support/seed-quotes.js";
import { BASE_MS } from "./support/small-dataset.js";
import { createSmallDatasetDatabase, type TestDatabase } from "./support/test-database.js";

let db: TestDatabase;
const tenantOne = tenantScope([1]);

beforeAll(async () => {
  db = await createSmallDatasetDatabase();
  // Another tenant's row, which no tenant-1 list may return.
  await db.knex("item").insert({ id: "x9", customer_id: 2, name: "Lobby other tenant", weight: 9, status: "ONLINE" });
});
afterAll(async () => db?.drop());

async function list(params: ListParams, scope: ListScope = tenantOne, more: Partial<Parameters<typeof runList>[2]> = {}) {
  return runList(db.knex, planList(itemResource, params), { scope, ...more });
}
const ids = (result: { content: Record<string, unknown>[] }) => result.content.map((row) => row.id);

/** Counts statements sent while running `action`. */
async function statementsDuring(knex: Knex, action: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (query: { sql: string }) => seen.push(query.sql);
  knex.on("query", listener);
  try {
    await action();
  } finally {
    knex.removeListener("query", listener);
  }
  return seen;
}

describe(SEED.pageObject, () => {
  test("a middle page", async () => {
    const result = await list({ page: 1, size: 2, sort: ["id"] });
    expect(ids(result)).toEqual(["i3", "i4"]);
    expect(result.page).toEqual({ number: 1, size: 2, numberOfElements: 2, totalElements: 5, totalPages: 3, first: false, last: false });
  });
  test("the last, short page", async () => {
    const result = await list({ page: 2, size: 2, sort: ["id"] });
    expect(result.page).toMatchObject({ numberOfElements: 1, totalElements: 5, first: false, last: true });
  });
  test("a page past the end is empty but still knows the total", async () => {
    const result = await list({ page: 9, size: 2 });
    expect(result.content).toEqual([]);
    expect(result.page).toMatchObject({ number: 9, numberOfElements: 0, totalElements: 5, totalPages: 3, last: true });
  });
  test("toPageResponse gives the documented flat shape", async () => {
    const response = toPageResponse(await list({ size: 2, select: "id" }));
    expect(Object.keys(response).sort()).toEqual(["content", "first", "last", "number", "numberOfElements", "size", "totalElements", "totalPages"]);
  });
});

describe(SEED.count, () => {
  test("one row with only its id, and the count in totalElements", async () => {
    const result = await list({ size: 1, select: "id", search: "weight≥0" });
    expect(result.content).toEqual([{ id: "i1" }]); // default sort: name, "Lobby screen" first
    expect(result.page.totalElements).toBe(3);
  });
  test("in a transaction, counting is skipped when the page proves the total (short first page)", async () => {
    const statements = await statementsDuring(db.knex, () => db.knex.transaction((trx) => runList(trx, planList(itemResource, { size: 20, search: "status=ONLINE" }), { scope: tenantOne })));
    expect(statements.filter((sql) => !/^(BEGIN|COMMIT)/i.test(sql))).toHaveLength(1);
    expect(statements.some((sql) => sql.includes("count("))).toBe(false);
  });
  test("in a transaction, a full page counts after the page", async () => {
    const statements = await statementsDuring(db.knex, () => db.knex.transaction((trx) => runList(trx, planList(itemResource, { size: 2 }), { scope: tenantOne })));
    const sent = statements.filter((sql) => !/^(BEGIN|COMMIT)/i.test(sql));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatch(/^select count\(\*\) as "total" from "item"/);
  });
  test("outside a transaction the count is sent beside the page, before the page has answered", async () => {
    const events: string[] = [];
    const onQuery = (q: { sql: string }) => events.push(`sent ${q.sql.startsWith("select count") ? "count" : "page"}`);
    const onResponse = (_: unknown, q: { sql: string }) => events.push(`answered ${q.sql.startsWith("select count") ? "count" : "page"}`);
    db.knex.on("query", onQuery).on("query-response", onResponse);
    try {
      const result = await list({ size: 2 });
      expect(result.page.totalElements).toBe(5);
    } finally {
      db.knex.off("query", onQuery).off("query-response", onResponse);
    }
    expect(events.indexOf("sent count")).toBeLessThan(events.indexOf("answered page"));
  });
  test("a short page's total is the page's, whatever the count beside it answers", async () => {
    const result = await list({ size: 20, search: "status=ONLINE" });
    expect(result.page).toMatchObject({ numberOfElements: result.content.length, totalElements: result.content.length, last: true });
  });
});

describe("tenant scope and team visibility: no list runs without them", () => {
  test("the scope is required at runtime too (a TypeError, not a 400)", async () => {
    const plan = planList(itemResource, {});
    // @ts-expect-error -- the scope is a required option
    await expect(runList(db.knex, plan, {})).rejects.toThrow(TypeError);
    // @ts-expect-error -- options themselves are required
    await expect(runList(db.knex, plan)).rejects.toThrow(/options.scope/);
  });
  test("the tenant scope hides other tenants", async () => {
    expect(ids(await list({ search: "name:Lobby" }))).toEqual(["i1"]);
    expect(ids(await list({ search: "name:Lobby" }, tenantScope([2])))).toEqual(["x9"]);
  });
  test("a global (ADMIN) scope may add nothing, but must still be passed", async () => {
    expect(ids(await list({ search: "name:Lobby", sort: ["id"] }, () => {}))).toEqual(["i1", "x9"]);
  });
  test("an object carrying the hook works the same", async () => {
    expect(ids(await list({ search: "name:Lobby" }, { apply: tenantOne }))).toEqual(["i1"]);
  });
  test("ORs in the scope cannot widen the filter, nor ORs in the filter the scope", async () => {
    const leaky: ListScope = (qb, target) => {
      qb.where(target.column("customer_id"), 1).orWhere(target.column("customer_id"), 3);
    };
    expect(ids(await list({ search: "weight>6|weight<0" }, leaky))).toEqual(["i2", "i5"]);
  });
  test("teamVisibility compiles through the teamAssignments relation", async () => {
    const visible = (teamIds: string[], includeResourcesWithoutTeam: boolean) =>
      list({ sort: ["id"] }, allScopes(tenantOne, teamVisibility({ teamIds, includeResourcesWithoutTeam })));
    expect(ids(await visible(["t1"], false))).toEqual(["i1"]);
    expect(ids(await visible(["t1"], true))).toEqual(["i1", "i3", "i5"]);
    expect(ids(await visible([], false))).toEqual([]);
    expect(ids(await visible([], true))).toEqual(["i3", "i5"]);
  });
  test("runs inside a transaction", async () => {
    await db.knex.transaction(async (trx) => {
      const result = await runList(trx, planList(itemResource, { size: 1, select: "id" }), { scope: tenantOne });
      expect(result.page.totalElements).toBe(5);
    });
  });
  test("extend adds service conditions to the page and the count", async () => {
    const result = await list({ size: 1, sort: ["id"] }, tenantOne, { extend: (qb) => void qb.whereNotNull("item.status") });
    expect(result.page.totalElements).toBe(4);
  });
  test("an orWhere in extend cannot escape the tenant scope", async () => {
    const result = await list({ sort: ["id"] }, tenantOne, { extend: (qb) => void qb.where("item.weight", ">", 6).orWhere("item.name", "like", "%other%") });
    expect(ids(result)).toEqual(["i5"]);
  });
});

describe(SEED.quickFilter, () => {
  test("the saved filter's criteria AND search", async () => {
    expect(ids(await list({ search: "weight>0", quickFilter: "status=ONLINE" }))).toEqual(["i1", "i5"]);
    expect(ids(await list({ search: "weight>0", quickFilter: parseFilter("enabled=false") }))).toEqual(["i5"]);
  });
  test("a broken saved filter is reported as the quick filter", async () => {
    await expect(list({ quickFilter: "status=" })).rejects.toThrow(/^Invalid quickFilter at position 0 in 'status=': '' is not one of/);
    await expect(list({ quickFilter: "(status" })).rejects.toBeInstanceOf(FilterParseError);
  });
});

describe(SEED.teamParams, () => {
  test("selectTeamIds (comma separated) keeps resources of those teams", async () => {
    expect(ids(await list({ selectTeamIds: "t2", sort: ["id"] }))).toEqual(["i1", "i2"]);
    expect(ids(await list({ selectTeamIds: ["t2", "t3"], sort: ["id"] }))).toEqual(["i1", "i2", "i4"]);
  });
  test("includeResourcesWithoutTeam adds unassigned resources", async () => {
    expect(ids(await list({ selectTeamIds: "t2", includeResourcesWithoutTeam: "true", sort: ["id"] }))).toEqual(["i1", "i2", "i3", "i5"]);
  });
  test("includeReadOnlyInfo adds readOnly from the caller's hook", async () => {
    const result = await list({ includeReadOnlyInfo: true, select: "id", selectTeamIds: "t2", sort: ["id"] }, tenantOne, {
      readOnly: readOnlyThroughTeams(["t2"]),
    });
    expect(result.content).toEqual([
      { id: "i1", readOnly: true },
      { id: "i2", readOnly: false },
    ]);
  });
  test("without a hook readOnly is false; without the parameter it is absent", async () => {
    expect((await list({ includeReadOnlyInfo: true, select: "id", size: 1 })).content[0]).toEqual({ id: "i3", readOnly: false });
    expect((await list({ select: "id", size: 1 })).content[0]).toEqual({ id: "i3" });
  });
});

describe(SEED.sort, () => {
  test("by a number, descending, nulls first as in PostgreSQL", async () => {
    expect(ids(await list({ sort: ["weight,desc"] }))).toEqual(["i3", "i5", "i1", "i4", "i2"]);
  });
  test("repeatable keys", async () => {
    expect(ids(await list({ sort: ["status,asc", "weight,asc"] }))).toEqual(["i2", "i1", "i5", "i4", "i3"]);
  });
  test("nested, through a to-one relation, with the id tiebreak", async () => {
    expect(ids(await list({ sort: ["content.name,asc"] }))).toEqual(["i1", "i4", "i2", "i3", "i5"]);
  });
  test("by a relation-path field", async () => {
    expect(ids(await list({ sort: ["contentName,desc"] }))).toEqual(["i3", "i5", "i2", "i1", "i4"]);
  });
  test("the default sort (name, then id)", async () => {
    expect(ids(await list({}))).toEqual(["i3", "i1", "i4", "i2", "i5"]);
  });
});

describe(`${SEED.selectStar}; ${SEED.selectId}`, () => {
  test("unselected fields are absent, selected nulls present; values in API form", async () => {
    const [row] = (await list({ search: "id=i1", select: "name,comment,createdDate,score,bigRef,price,tags,info,tagCount,secret" })).content;
    expect(row).toEqual({
      id: "i1",
      name: "Lobby screen",
      comment: null,
      score: 10,
      price: 9.99,
      createdDate: BASE_MS + 1, // Unix ms, microseconds dropped
      tags: ["red", "blue"],
      info: { a: "x", nested: { c: "deep" } },
      bigRef: 1,
      secret: "s1",
      tagCount: 2,
    });
    expect("weight" in row).toBe(false);
  });
  test("a relation-path field is selected as a plain value", async () => {
    const result = await list({ sort: ["id"], size: 3, select: "contentName" });
    expect(result.content).toEqual([
      { id: "i1", contentName: "Menu" },
      { id: "i2", contentName: "menu board" },
      { id: "i3", contentName: null },
    ]);
  });
  test("64-bit values beyond 2^53 stay exact (as text)", async () => {
    const [row] = (await list({ search: "id=i4", select: "bigRef,score" })).content;
    expect(row).toEqual({ id: "i4", bigRef: "9007199254740993", score: -5 });
  });
  test("relations: to-one object or null, to-many array, two levels", async () => {
    const result = await list({ sort: ["id"], size: 3, select: "content(name,updatedAt),teamAssignments(readOnly,team(name))" });
    expect(result.content).toEqual([
      {
        id: "i1",
        content: { id: "c1", name: "Menu", updatedAt: BASE_MS },
        teamAssignments: [
          { readOnly: false, team: { id: "t1", name: "Ops" } },
          { readOnly: true, team: { id: "t2", name: "Sales" } },
        ],
      },
      { id: "i2", content: { id: "c2", name: "menu board", updatedAt: null }, teamAssignments: [{ readOnly: false, team: { id: "t2", name: "Sales" } }] },
      { id: "i3", content: null, teamAssignments: [] },
    ]);
  });
});

describe(SEED.folders, () => {
  test("folder lists: roots, children, and a whole subtree", async () => {
    const folders = (search: string) =>
      runList(db.knex, planList(folderResource, { search, sort: ["id"], select: "id" }), { scope: (qb, t) => void qb.where(t.column("customer_id"), 1) });
    expect(ids(await folders("parentId=NULL"))).toEqual(["f1", "f4"]);
    expect(ids(await folders("parentId=f2"))).toEqual(["f3"]);
    expect(ids(await folders("folderPath:f2"))).toEqual(["f2", "f3"]);
  });
  test("items: direct folder and recursive path", async () => {
    expect(ids(await list({ search: "folderId=f1", select: "id" }))).toEqual(["i4"]);
    expect(ids(await list({ search: "folderPath:f1", sort: ["id"], select: "id" }))).toEqual(["i1", "i2", "i4"]);
  });
});
