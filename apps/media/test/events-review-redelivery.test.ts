// DESIGN: "A service keeps local replicas it needs (e.g. the tenant directory) fed by events" and
// "JetStream streams are durable; consumers are idempotent (dedupe on event id)". A replica that
// gives up on an event is wrong for good: nothing sends the fact again. The bus dead-letters an
// event after `maxDeliver` failed attempts (5 by default: about 15 s of a database that does not
// answer, with the default back-off), so media's team replica must keep retrying instead.
// On the real bus (JetStream), with media's handler failing while its table is away.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { TeamEvent } from "@signage/runtime";
import { createCustomer, eventually, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";

let platform: TestPlatform;
let customerId: number;
const media = () => platform.knexOf("media");

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], bus: "jetstream", prefix: "media_events_redelivery" });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  customerId = (await createCustomer(platform.http, admin)).id;
}, 60_000);
afterAll(() => platform?.close(), 30_000);

describe("events review: media's team replica never gives up on an event", () => {
  it("'consumers are idempotent' replicas: a team.created that failed more than maxDeliver times (database away) still applies once the database is back", async () => {
    const deadLetters: string[] = [];
    const watch = await platform.bus.subscribe({ consumer: `test-deadletters-${randomUUID()}`, types: ["deadletter.>"], handler: async (e) => void deadLetters.push(e.type) });
    const team = randomUUID();
    // The handler fails on every attempt while the replica's version table is away (as on a database outage).
    await media().raw("ALTER TABLE team_replica_version RENAME TO team_replica_version_away");
    try {
      await platform.bus.publish({ id: randomUUID(), type: TeamEvent.created, customerId, seq: 5_000_000, data: { id: team, customerId, name: "Created during an outage" } });
      // The test bus retries after 50 ms: far more than 5 attempts fit in this time.
      await new Promise((r) => setTimeout(r, 1_500));
    } finally {
      await media().raw("ALTER TABLE team_replica_version_away RENAME TO team_replica_version");
    }
    await eventually(() => media()("team").where({ id: team }).first("name"), (row) => row !== undefined, "team replicated once the database answers again", 5_000);
    expect(deadLetters.filter((t) => t.includes("team."))).toEqual([]);
    await watch.stop();
  });

  it("'the tenant directory' replica: a customer.created that failed more than maxDeliver times still creates the tenant and its root folder ('Root folder: auto-created per customer')", async () => {
    const deadLetters: string[] = [];
    const watch = await platform.bus.subscribe({ consumer: `test-deadletters-${randomUUID()}`, types: ["deadletter.>"], handler: async (e) => void deadLetters.push(e.type) });
    const id = 900_000_000 + Math.floor(Math.random() * 1_000_000);
    // Media's creation hook fails on every attempt while the folder table is away.
    await media().raw("ALTER TABLE file_folder RENAME TO file_folder_away");
    try {
      await platform.bus.publish({ id: randomUUID(), type: "customer.created", customerId: id, seq: 6_000_000, data: { id, ownerSubresellerId: null, networkOwner: false, restricted: false } });
      await new Promise((r) => setTimeout(r, 1_500));
    } finally {
      await media().raw("ALTER TABLE file_folder_away RENAME TO file_folder");
    }
    await eventually(() => media()("file_folder").where({ customer_id: id }).whereNull("parent_id").first("id"), (row) => row !== undefined, "root folder created once the database answers again", 5_000);
    expect(await media()("tenant").where({ customer_id: id }).first("deleted")).toEqual({ deleted: false });
    expect(deadLetters.filter((t) => t.includes("customer."))).toEqual([]);
    await watch.stop();
  });
});
