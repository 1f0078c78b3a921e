import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { applyFilter, ListQueryError, parseFilter, planList, printFilter, runList, type FilterNode } from "../src/index.js";
import { filterTree } from "./support/arbitraries.js";
import { generateDataset, loadDataset } from "./support/fixture-data.js";
import { anyComparison, validComparison } from "./support/fixture-arbitraries.js";
import { FIXTURE_DDL, itemResource } from "./support/fixture-registry.js";
import { ReferenceEvaluator } from "./support/reference-evaluator.js";
import { createTestDatabase, type TestDatabase } from "./support/test-database.js";

const data = generateDataset(20_261_122, 150);
const reference = new ReferenceEvaluator(data);
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.knex.raw(FIXTURE_DDL);
  await loadDataset(db.knex, data);
});
afterAll(async () => db?.drop());

async function idsFromDatabase(filter: FilterNode): Promise<string[]> {
  const rows = await applyFilter(db.knex("item").select("id").orderBy("id"), itemResource, filter);
  return rows.map((row: { id: string }) => row.id);
}

describe("property: compiled SQL agrees with an in-memory evaluation of the same AST", () => {
  test("random valid ASTs, printed and re-parsed, select exactly the reference rows", async () => {
    let nonTrivial = 0;
    await fc.assert(
      fc.asyncProperty(filterTree(validComparison, 3), async (tree) => {
        const reparsed = parseFilter(printFilter(tree));
        const expected = reference.matchingIds(tree);
        if (expected.length > 0 && expected.length < data.items.length) nonTrivial++;
        expect(await idsFromDatabase(reparsed)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
    // The generators must produce filters that actually discriminate rows.
    expect(nonTrivial).toBeGreaterThan(150);
  });

  test("through runList (scope, paging, projection) the content is the same rows", async () => {
    await fc.assert(
      fc.asyncProperty(filterTree(validComparison, 2), async (tree) => {
        const plan = planList(itemResource, { quickFilter: tree, size: 1000, select: "id" }, { maxSize: 1000 });
        const result = await runList(db.knex, plan, { scope: (qb) => qb.whereRaw("true") });
        expect(result.content.map((row) => row.id as string).sort()).toEqual(reference.matchingIds(tree));
        expect(result.page.totalElements).toBe(result.content.length);
      }),
      { numRuns: 100 },
    );
  });
});

describe("property: whatever the AST, the outcome is rows or a ListQueryError, never a SQL error", () => {
  test("random ASTs over known and unknown fields, any operator, any value", async () => {
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(filterTree(anyComparison, 3), async (tree) => {
        let query;
        try {
          query = applyFilter(db.knex("item").select("id"), itemResource, tree);
        } catch (error) {
          if (error instanceof ListQueryError) return;
          throw error;
        }
        await query;
        ran++;
      }),
      { numRuns: 500 },
    );
    expect(ran).toBeGreaterThan(50);
  });
});
