// The replica's version check (replica-versions.ts) against real PostgreSQL: an event of a
// customer never commits its rows past a concurrent deletion of that customer. The deletion takes
// the customer's key exclusively, every other event of the customer shared, customer key first.
import knexFactory, { type Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@signage/db";
import { createReplicaVersionTable, isStale } from "../src/teams/replica-versions.js";

let db: TestDatabase;
let knex: Knex;

beforeAll(async () => {
  db = await createTestDatabase({ prefix: "runtime_replica_versions" });
  knex = knexFactory({ client: "pg", connection: db.url, pool: { min: 0, max: 4 } });
  await createReplicaVersionTable(knex);
});
afterAll(async () => {
  await knex?.destroy();
  await db?.drop();
});

describe("isStale", () => {
  it("an older event of a customer waits for its concurrent deletion, then is stale", async () => {
    const deletion = await knex.transaction();
    let teamEvent: Promise<boolean> | undefined;
    try {
      expect(await isStale(deletion, { customerId: 7, keys: ["customer:7"] }, 100)).toBe(false);
      let settled = false;
      teamEvent = knex.transaction((trx) => isStale(trx, { customerId: 7, keys: ["team:a"] }, 50)).finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(settled).toBe(false);
    } finally {
      // Also on failure: an open transaction would keep the test database from being dropped.
      await deletion.commit();
    }
    expect(await teamEvent).toBe(true);
  });

  it("a newer event of a thing applies, the same or an older one is stale; other things are independent", async () => {
    expect(await knex.transaction((trx) => isStale(trx, { customerId: 8, keys: ["team:b"] }, 10))).toBe(false);
    expect(await knex.transaction((trx) => isStale(trx, { customerId: 8, keys: ["team:b"] }, 10))).toBe(true);
    expect(await knex.transaction((trx) => isStale(trx, { customerId: 8, keys: ["team:b"] }, 9))).toBe(true);
    expect(await knex.transaction((trx) => isStale(trx, { customerId: 8, keys: ["team:c"] }, 9))).toBe(false);
    expect(await knex.transaction((trx) => isStale(trx, { customerId: 8, keys: ["team:b"] }, 11))).toBe(false);
  });
});
