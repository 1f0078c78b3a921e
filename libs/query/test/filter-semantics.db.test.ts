import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { applyFilter, parseFilter } from "../src/index.js";
import { folderResource, itemResource } from "./support/fixture-registry.js";
import { ReferenceEvaluator } from "./support/reference-evaluator.js";
import { SEED } from "./support/seed-quotes.js";
import { BASE_MS, SMALL_DATASET, UUID_1 } from "./support/small-dataset.js";
import { createSmallDatasetDatabase, type TestDatabase } from "./support/test-database.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await createSmallDatasetDatabase();
});
afterAll(async () => db?.drop());

const reference = new ReferenceEvaluator(SMALL_DATASET);

/** Runs the search on PostgreSQL; also checks the reference evaluator agrees with the hand-worked answer. */
async function matching(search: string): Promise<string[]> {
  const rows = await applyFilter(db.knex("item").select("id").orderBy("id"), itemResource, search);
  const ids = rows.map((row: { id: string }) => row.id);
  expect(reference.matchingIds(parseFilter(search)), `reference evaluator for ${search}`).toEqual(ids);
  return ids;
}

type Case = readonly [search: string, expected: string[]];
const check = (cases: readonly Case[]) =>
  test.each(cases)("%s", async (search, expected) => {
    expect(await matching(search)).toEqual(expected);
  });

describe(SEED.caseSensitive, () => {
  check([
    ["name:Lobby", ["i1"]],
    ["name:lobby", ["i2"]],
    ["tags:red", ["i1"]],
    ["tags:Red", ["i4"]],
  ]);
});

describe(SEED.colon, () => {
  check([
    ["name:obby", ["i1", "i2"]],
    ["name:%25", ["i3"]], // '%' is literal, not a wildcard
    ["name:_", ["i3"]], // so is '_'
    ["name:50%25 off_", ["i3"]],
    ["weight:5", ["i1"]], // equals for numbers: no "contains 5"
    ["status:ONLINE", ["i1", "i5"]],
    ["enabled:true", ["i1", "i4"]],
    ["id:i1", ["i1"]],
  ]);
});

describe(SEED.equals, () => {
  check([
    ["name=lobby Café", ["i2"]],
    ["name=lobby", []],
    ["comment=", ["i2"]], // the empty string is a value, not NULL
    ["weight=0", ["i4"]],
  ]);
});

describe(SEED.negations, () => {
  check([
    ["name≠lobby Café", ["i1", "i3", "i4", "i5"]], // rows without a name are "not equal" too
    ["name∉obby", ["i3", "i4", "i5"]],
    ["name^lob", ["i2"]],
    ["name^Lob", ["i1"]],
    ["weight≠5", ["i2", "i3", "i4", "i5"]],
    ["enabled≠true", ["i2", "i3", "i5"]],
    ["tags≠red", ["i2", "i3", "i4", "i5"]],
    ["tags∉blue", ["i2", "i3", "i4"]],
  ]);
});

describe(SEED.ranges, () => {
  check([
    ["weight>0", ["i1", "i5"]],
    ["weight≥0", ["i1", "i4", "i5"]],
    ["weight<0", ["i2"]],
    ["weight≤0", ["i2", "i4"]],
    ["score>1000000000", ["i3"]],
    ["ratio<0", ["i4"]],
    ["price≥9.99", ["i1", "i4"]],
    ["price:0.1", ["i3"]],
    // createdDate (timestamptz with microseconds) compares as ms: i1 = BASE+1.5ms reads as BASE+1
    [`createdDate=${BASE_MS + 1}`, ["i1"]],
    [`createdDate>${BASE_MS}`, ["i1", "i4"]],
    [`createdDate≥${BASE_MS}`, ["i1", "i2", "i4"]],
    [`createdDate<${BASE_MS}`, ["i5"]],
    [`createdDate≤${BASE_MS}`, ["i2", "i5"]],
    // lastSeen is stored as bigint ms
    [`lastSeen>${BASE_MS + 4}`, ["i1", "i4", "i5"]],
    [`lastSeen=${BASE_MS + 5}`, ["i1", "i5"]],
  ]);
});

describe(SEED.inSet, () => {
  check([
    ["name∈Lobby screen%2Cnope", ["i1"]],
    ["weight∈5%2C7", ["i1", "i5"]],
    ["id∈i1%2Ci3", ["i1", "i3"]],
    [`createdDate∈${BASE_MS}%2C${BASE_MS + 1}`, ["i1", "i2"]],
    ["tags∈red%2Cblue", ["i1", "i5"]],
    ["tags∈x%252Cy", ["i4"]], // an item containing ',' is encoded twice
    ["status∈OFFLINE%2CUNKNOWN", ["i2", "i4"]],
  ]);
});

describe(SEED.tags, () => {
  check([
    ["tags:blue", ["i1", "i5"]],
    ["tags:x%2Cy", ["i4"]],
    ["(tags:red|tags:Red),tags:blue", ["i1"]],
  ]);
});

describe(SEED.specialValues, () => {
  check([
    ["comment=NULL", ["i1", "i5"]],
    ["comment=!NULL", ["i2", "i3", "i4"]],
    ["tags=NULL", ["i2", "i3"]], // empty and null collections
    ["tags=!NULL", ["i1", "i4", "i5"]],
    ["info=NULL", ["i2", "i3", "i4", "i5"]], // JSON null, SQL null, {} and []
    ["info=!NULL", ["i1"]],
    ["enabled=true", ["i1", "i4"]],
    ["enabled=false", ["i2", "i5"]],
    ["enabled=NULL", ["i3"]],
  ]);
});

describe(SEED.logic, () => {
  check([
    ["weight>0,status=ONLINE", ["i1", "i5"]],
    ["weight<0|weight>6", ["i2", "i5"]],
    ["status=UNKNOWN|(weight>6,enabled=false)", ["i4", "i5"]],
  ]);
});

describe(SEED.precedence, () => {
  // (UNKNOWN OR weight>6) AND enabled=false; were AND tighter, i4 would match too.
  check([["status=UNKNOWN|weight>6,enabled=false", ["i5"]]]);
});

describe(SEED.nested, () => {
  check([
    ["content.name:enu", ["i1", "i2", "i4"]],
    ["content.name:Menu", ["i1", "i4"]],
    ["content.kind=COMPLEX", ["i2"]],
    ["content.id=c1", ["i1", "i4"]],
    ["content=NULL", ["i3", "i5"]],
    ["content=!NULL", ["i1", "i2", "i4"]],
    ["content.updatedAt=NULL", ["i2", "i3", "i5"]],
    ["content.name≠Menu", ["i2", "i3", "i5"]], // negation: no related row named Menu
    ["info.a=x", ["i1"]],
    ["info.nested.c:ee", ["i1"]],
    ["info.a=NULL", ["i2", "i3", "i4", "i5"]],
  ]);
});

describe(SEED.teams, () => {
  check([
    ["teamAssignments.team.id=t2", ["i1", "i2"]],
    ["teamAssignments=NULL", ["i3", "i5"]],
    ["teamAssignments=!NULL", ["i1", "i2", "i4"]],
    ["teamAssignments.readOnly=true", ["i1", "i4"]],
    ["teamAssignments.team.name:Ops", ["i1"]],
    ["teamAssignments.team.id≠t2", ["i3", "i4", "i5"]],
    ["teamAssignments.team.name=NULL", ["i3", "i4", "i5"]],
    ["teamAssignments.team.id∈t1%2Ct3", ["i1", "i4"]],
  ]);
});

describe(SEED.folders, () => {
  check([
    ["folderId=f2", ["i2"]],
    ["folderPath:f2", ["i1", "i2"]],
    ["folderPath:f1", ["i1", "i2", "i4"]],
    ["folderId=NULL", ["i3"]],
    ["folderPath∈f3%2Cf4", ["i1", "i5"]],
  ]);

  test.each([
    ["parentId=NULL", ["f1", "f4"]],
    ["parentId=f1", ["f2"]],
    ["folderPath:f2", ["f2", "f3"]],
  ])("folders themselves: %s", async (search, expected) => {
    const rows = await applyFilter(db.knex("folder").select("id").orderBy("id"), folderResource, search);
    expect(rows.map((row: { id: string }) => row.id)).toEqual(expected);
  });
});

describe("id types", () => {
  check([
    [`uid=${UUID_1.toUpperCase()}`, ["i1"]],
    ["uid=nope", []], // not a uuid: no row can have it
    ["uid≠nope", ["i1", "i2", "i3", "i4", "i5"]],
    ["bigRef=9007199254740993", ["i4"]], // beyond 2^53, still exact
    ["bigRef=x", []],
  ]);
});

describe("computed, internal and relation-path fields", () => {
  check([
    ["contentName:enu", ["i1", "i2", "i4"]],
    ["contentName=NULL", ["i3", "i5"]],
    ["teamIds=t2", ["i1", "i2"]],
    ["teamIds≠t2", ["i3", "i4", "i5"]],
    ["tagCount≥2", ["i1", "i4"]],
    ["tagCount=0", ["i2", "i3"]],
    ["customerId=1", ["i1", "i2", "i3", "i4", "i5"]],
  ]);
});

test("applyFilter drives bulk updates by search", async () => {
  await db.knex.transaction(async (trx) => {
    const updated = await applyFilter(trx("item").update({ secret: "tagged" }), itemResource, "folderPath:f2");
    expect(updated).toBe(2);
    await trx.rollback();
  }).catch(() => undefined);
  expect(await matching("secret=tagged")).toEqual([]);
});

describe(SEED.equals, () => {
  // "`=` exact match": a numeric column compares exactly, so the value is bound as written,
  // not rounded to a double (12345678901234567.89 and .88 are the same double).
  test("numeric values are compared exactly, not through a double", async () => {
    const ids = async (search: string) => {
      let found: string[] = [];
      await db.knex
        .transaction(async (trx) => {
          await trx("item").insert({ id: "i9", customer_id: 1, price: "12345678901234567.89" });
          const rows = await applyFilter(trx("item").select("id").orderBy("id"), itemResource, search);
          found = rows.map((row: { id: string }) => row.id);
          await trx.rollback();
        })
        .catch(() => undefined);
      return found;
    };
    expect(await ids("price=12345678901234567.89")).toEqual(["i9"]);
    expect(await ids("price=12345678901234567.88")).toEqual([]);
    expect(await ids("price>12345678901234567.88")).toEqual(["i9"]);
    expect(await ids("price∈1%2C12345678901234567.89")).toEqual(["i9"]);
    expect(await ids("price≥1e2")).toEqual(["i4", "i9"]);
  });
});
