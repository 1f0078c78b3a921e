// The event inbox prune (inbox-prune.ts) against real PostgreSQL: marks older than the cut-off go,
// in batches, newer ones stay (they still guard against a redelivery within the stream's retention).
import knexFactory, { type Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@signage/db";
import { createInboxTable } from "@signage/events";
import { pruneEventInbox } from "../src/inbox-prune.js";

let db: TestDatabase;
let knex: Knex;

beforeAll(async () => {
  db = await createTestDatabase({ prefix: "runtime_inbox_prune" });
  knex = knexFactory({ client: "pg", connection: db.url, pool: { min: 0, max: 2 } });
  await createInboxTable(knex);
});
afterAll(async () => {
  await knex?.destroy();
  await db?.drop();
});

describe("pruneEventInbox", () => {
  it("deletes the marks processed before the cut-off, batch by batch, and keeps the newer ones", async () => {
    const now = Date.now();
    const old = Array.from({ length: 7 }, (_, i) => ({ consumer: "media.tenants", event_id: `old-${i}`, processed_at: new Date(now - 10 * 86_400_000 - i) }));
    const fresh = Array.from({ length: 3 }, (_, i) => ({ consumer: "media.tenants", event_id: `fresh-${i}`, processed_at: new Date(now - i * 1000) }));
    await knex("event_inbox").insert([...old, ...fresh]);
    const removed = await pruneEventInbox(knex, { olderThan: new Date(now - 8 * 86_400_000), batchSize: 3 });
    expect(removed).toBe(7);
    expect((await knex("event_inbox").orderBy("event_id").pluck("event_id")).sort()).toEqual(["fresh-0", "fresh-1", "fresh-2"]);
  });

  it("stops after maxBatches statements (a round never runs unbounded); the next round goes on", async () => {
    await knex("event_inbox").delete();
    await knex("event_inbox").insert(Array.from({ length: 10 }, (_, i) => ({ consumer: "c", event_id: `e-${i}`, processed_at: new Date(0) })));
    expect(await pruneEventInbox(knex, { olderThan: new Date(), batchSize: 2, maxBatches: 2 })).toBe(4);
    expect(await pruneEventInbox(knex, { olderThan: new Date(), batchSize: 2, maxBatches: 10 })).toBe(6);
  });
});
