import type { Knex } from "knex";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  buildEnvelope,
  createInboxTable,
  createKnexInbox,
  dropInboxTable,
  idempotent,
  withInbox,
  type EventEnvelope,
} from "../src/index.js";
import { createJetStreamWorld } from "./helpers/jetstream.js";
import { createTestDatabase, type TestDatabase } from "./helpers/postgres.js";
import { sleep, waitFor } from "./helpers/wait.js";

const SCHEMA = "media";
const opts = { schema: SCHEMA };

describe("inbox (PostgreSQL)", () => {
  let db: TestDatabase;
  let knex: Knex;

  beforeAll(async () => {
    db = await createTestDatabase();
    knex = db.knex;
    // What a service migration would do: own schema, inbox table, its own tables.
    await knex.schema.createSchema(SCHEMA);
    await createInboxTable(knex, opts);
    await createInboxTable(knex, opts); // idempotent
    await knex.schema.withSchema(SCHEMA).createTable("folders", (t) => {
      t.increments("id");
      t.integer("customer_id").notNullable();
    });
  });
  afterAll(() => db?.drop());
  beforeEach(async () => {
    await knex.withSchema(SCHEMA).table("folders").delete();
    await knex.withSchema(SCHEMA).table("event_inbox").delete();
  });

  const event = (id = `evt-${Math.random()}`): EventEnvelope<{ n: number }> =>
    buildEnvelope({ id, type: "customer.created", customerId: 5, data: { n: 1 } }, undefined);
  const folders = () => knex.withSchema(SCHEMA).table("folders").count<{ count: string }[]>({ count: "*" }).then((r) => Number(r[0].count));
  const marks = () => knex.withSchema(SCHEMA).table("event_inbox").select("consumer", "event_id");

  it("creates the table in the service schema with the expected key", async () => {
    const cols = await knex("information_schema.columns")
      .where({ table_schema: SCHEMA, table_name: "event_inbox" })
      .orderBy("ordinal_position")
      .pluck("column_name");
    expect(cols).toEqual(["consumer", "event_id", "processed_at"]);
    await knex.withSchema(SCHEMA).table("event_inbox").insert({ consumer: "c", event_id: "e" });
    await expect(knex.withSchema(SCHEMA).table("event_inbox").insert({ consumer: "c", event_id: "e" })).rejects.toThrow(/duplicate key/);
  });

  it("withInbox applies an event once even when delivered twice", async () => {
    let runs = 0;
    const handler = withInbox<{ n: number }>(knex, "media.customer-created", async (e, trx) => {
      runs++;
      await trx.withSchema(SCHEMA).table("folders").insert({ customer_id: e.customerId });
    }, opts);
    const e = event();
    await handler(e);
    await handler(e);
    expect(runs).toBe(1);
    expect(await folders()).toBe(1);
    expect(await marks()).toEqual([{ consumer: "media.customer-created", event_id: e.id }]);
  });

  it("withInbox serialises concurrent duplicate deliveries", async () => {
    let runs = 0;
    const handler = withInbox(knex, "c", async (e, trx) => {
      runs++;
      await sleep(100); // hold the claim while the duplicate arrives
      await trx.withSchema(SCHEMA).table("folders").insert({ customer_id: e.customerId });
    }, opts);
    const e = event();
    await Promise.all([handler(e), handler(e)]);
    expect(runs).toBe(1);
    expect(await folders()).toBe(1);
  });

  it("a handler failure rolls back both its writes and the inbox mark", async () => {
    let fail = true;
    const handler = withInbox(knex, "c", async (e, trx) => {
      await trx.withSchema(SCHEMA).table("folders").insert({ customer_id: e.customerId });
      if (fail) throw new Error("after write");
    }, opts);
    const e = event();
    await expect(handler(e)).rejects.toThrow("after write");
    expect(await folders()).toBe(0);
    expect(await marks()).toEqual([]);

    fail = false;
    await handler(e);
    expect(await folders()).toBe(1);
    expect(await marks()).toHaveLength(1);
  });

  it("keys the inbox by consumer: other consumers still process the event", async () => {
    const e = event();
    let runs = 0;
    const h = (consumer: string) => withInbox(knex, consumer, async () => void runs++, opts);
    await h("a")(e);
    await h("b")(e);
    await h("a")(e);
    expect(runs).toBe(2);
  });

  it("idempotent() skips events already marked", async () => {
    const inbox = createKnexInbox(knex, opts);
    let runs = 0;
    const handler = idempotent(async () => void runs++, inbox, "c");
    const e = event();
    await handler(e);
    await handler(e);
    expect(runs).toBe(1);
    expect(await inbox.seen("c", e.id)).toBe(true);
    expect(await inbox.seen("other", e.id)).toBe(false);
  });

  it("prune() removes old marks", async () => {
    const inbox = createKnexInbox(knex, opts);
    await inbox.markSeen("c", "old");
    await knex.withSchema(SCHEMA).table("event_inbox").where({ event_id: "old" }).update({ processed_at: new Date(0) });
    await inbox.markSeen("c", "new");
    expect(await inbox.prune(new Date(Date.now() - 60_000))).toBe(1);
    expect((await marks()).map((m) => m.event_id)).toEqual(["new"]);
  });

  it("prune() deletes batch by batch, at most maxBatches statements a call; the next call goes on", async () => {
    const inbox = createKnexInbox(knex, opts);
    const now = Date.now();
    await knex.withSchema(SCHEMA).table("event_inbox").insert([
      ...Array.from({ length: 7 }, (_, i) => ({ consumer: "c", event_id: `old-${i}`, processed_at: new Date(now - 10 * 86_400_000 - i) })),
      ...Array.from({ length: 3 }, (_, i) => ({ consumer: "c", event_id: `fresh-${i}`, processed_at: new Date(now - i * 1000) })),
    ]);
    const cutoff = new Date(now - 8 * 86_400_000);
    expect(await inbox.prune(cutoff, { batchSize: 2, maxBatches: 2 })).toBe(4);
    expect(await inbox.prune(cutoff, { batchSize: 3 })).toBe(3);
    expect((await marks()).map((m) => m.event_id).sort()).toEqual(["fresh-0", "fresh-1", "fresh-2"]);
  });

  it("end to end: JetStream redelivery after a failed handler commits exactly once", async () => {
    const world = await createJetStreamWorld({ nakDelayMs: 50 });
    try {
      const bus = await world.bus();
      let attempts = 0;
      await bus.subscribe({
        consumer: "media.customer-created",
        types: ["customer.created"],
        handler: withInbox(knex, "media.customer-created", async (e, trx) => {
          attempts++;
          await trx.withSchema(SCHEMA).table("folders").insert({ customer_id: e.customerId });
          if (attempts === 1) throw new Error("crash after write");
        }, opts),
      });
      const e = await bus.publish({ type: "customer.created", customerId: 9, data: {} });
      await waitFor(() => attempts === 2, "redelivery");
      await sleep(200);
      expect(await folders()).toBe(1);
      expect(await marks()).toEqual([{ consumer: "media.customer-created", event_id: e.id }]);
    } finally {
      await world.dispose();
    }
  });

  it("dropInboxTable removes the table", async () => {
    await dropInboxTable(knex, opts);
    expect(await knex.schema.withSchema(SCHEMA).hasTable("event_inbox")).toBe(false);
    await createInboxTable(knex, opts);
  });
});
