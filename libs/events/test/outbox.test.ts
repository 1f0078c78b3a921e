// The transactional outbox: an event exists exactly when the change it
// announces committed, and reaches subscribers even if publishing failed.
import type { Knex } from "knex";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createInProcessBus, createOutbox, createOutboxTable, type EventBus, type EventEnvelope } from "../src/index.js";
import { createJetStreamWorld, type JetStreamWorld } from "./helpers/jetstream.js";
import { createTestDatabase, type TestDatabase } from "./helpers/postgres.js";
import { sleep, waitFor } from "./helpers/wait.js";

describe("outbox (PostgreSQL)", () => {
  let db: TestDatabase;
  let knex: Knex;

  beforeAll(async () => {
    db = await createTestDatabase();
    knex = db.knex;
    await createOutboxTable(knex);
    await createOutboxTable(knex); // idempotent
    await knex.schema.createTable("thing", (t) => t.text("id").primary());
  });
  afterAll(() => db?.drop());
  beforeEach(async () => {
    await knex("event_outbox").delete();
    await knex("thing").delete();
  });

  async function recordingBus(): Promise<{ bus: EventBus; got: EventEnvelope[] }> {
    const bus = createInProcessBus();
    const got: EventEnvelope[] = [];
    await bus.subscribe({ consumer: "test", types: ["thing.*"], handler: async (e) => void got.push(e) });
    return { bus, got };
  }

  it("publishes right after commit, with the stored id, and empties the table", async () => {
    const { bus, got } = await recordingBus();
    const outbox = createOutbox({ knex, bus, pollIntervalMs: 60_000 });
    outbox.start();
    const id = await knex.transaction(async (trx) => {
      await trx("thing").insert({ id: "a" });
      return outbox.enqueue(trx, { type: "thing.created", customerId: 7, data: { id: "a" } });
    });
    await waitFor(() => got.length === 1, "thing.created");
    expect(got[0]).toMatchObject({ id, type: "thing.created", customerId: 7, data: { id: "a" } });
    // The row is deleted in the relay's transaction, which commits just after the bus accepted the event.
    let left = -1;
    for (let i = 0; i < 100 && left !== 0; i++, await sleep(10)) left = Number((await knex("event_outbox").count({ n: "*" }).first())?.n);
    expect(left).toBe(0);
    await outbox.stop();
    await bus.close();
  });

  it("publishes nothing for a rolled-back transaction", async () => {
    const { bus, got } = await recordingBus();
    const outbox = createOutbox({ knex, bus, pollIntervalMs: 60_000 });
    outbox.start();
    await knex
      .transaction(async (trx) => {
        await trx("thing").insert({ id: "b" });
        await outbox.enqueue(trx, { type: "thing.created", customerId: 7, data: { id: "b" } });
        throw new Error("validation failed");
      })
      .catch(() => undefined);
    expect(await outbox.flush()).toBe(0);
    await sleep(50);
    expect(got).toHaveLength(0);
    await outbox.stop();
    await bus.close();
  });

  it("keeps the event when the bus refuses it, and publishes it on a later attempt in order", async () => {
    const { bus, got } = await recordingBus();
    let refuse = true;
    const flaky: EventBus = { ...bus, publish: (e) => (refuse ? Promise.reject(new Error("bus down")) : bus.publish(e)) };
    const outbox = createOutbox({ knex, bus: flaky, pollIntervalMs: 60_000 });
    await knex.transaction((trx) => outbox.enqueue(trx, { type: "thing.created", customerId: 1, data: { n: 1 } }));
    await knex.transaction((trx) => outbox.enqueue(trx, { type: "thing.updated", customerId: 1, data: { n: 2 } }));
    await expect(outbox.flush()).rejects.toThrow("bus down");
    expect(Number((await knex("event_outbox").count({ n: "*" }).first())?.n)).toBe(2);
    refuse = false;
    expect(await outbox.flush()).toBe(2);
    await waitFor(() => got.length === 2, "both events");
    expect(got.map((e) => e.type)).toEqual(["thing.created", "thing.updated"]);
    await bus.close();
  });

  describe("with JetStream", () => {
    let world: JetStreamWorld;
    beforeAll(async () => {
      world = await createJetStreamWorld();
    });
    afterAll(() => world?.dispose());

    it("two relays on one table deliver each event once", async () => {
      const bus = await world.bus();
      const got: string[] = [];
      await bus.subscribe({ consumer: "once", types: ["thing.*"], startFrom: "all", handler: async (e) => void got.push(e.id) });
      const a = createOutbox({ knex, bus, pollIntervalMs: 20, batchSize: 3 });
      const b = createOutbox({ knex, bus, pollIntervalMs: 20, batchSize: 3 });
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push(await knex.transaction((trx) => a.enqueue(trx, { type: "thing.created", customerId: 1, data: { i } })));
      a.start();
      b.start();
      await waitFor(() => got.length >= 20, "20 events");
      await sleep(200);
      expect([...got].sort()).toEqual([...ids].sort());
      await a.stop();
      await b.stop();
    });
  });
});
