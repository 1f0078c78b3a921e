// Core's tag index and quick filter usage index are fed only by events (tags.changed /
// tags.resourceDeleted, quickFilter.usage.changed): an event they give up on leaves a tag counted
// (or not), a filter used (or not), for good, and document 2's "DELETE /api/tag ... (refused while
// in use)" / quick filter "DELETE ... refused while used by ... filtered folders" would then refuse or
// allow wrongly. The bus dead-letters an event after `maxDeliver` failed attempts; these consumers
// must keep retrying instead.
// On the real bus (JetStream, 50 ms between attempts), with the index table away for a moment.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createUser, eventually, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { quickFilterUsageEvent, tagsChangedEvent } from "@signage/runtime";
import { coreModule } from "../src/module.js";

let platform: TestPlatform;
let customerId: number;
let token: string;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], bus: "jetstream", prefix: "core_tags_redelivery" });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  customerId = (await createCustomer(platform.http, admin)).id;
  token = (await createUser(platform.http, admin, customerId, "EDITOR")).token;
}, 60_000);
afterAll(() => platform?.close(), 30_000);

describe("core's event-fed indexes never give up on an event", () => {
  it("'fileTags, each a map from tag to {count, comment}': a tags.changed that failed more than maxDeliver times (table away) is still counted once it can be", async () => {
    const deadLetters: string[] = [];
    const watch = await platform.bus.subscribe({ consumer: `test-deadletters-${randomUUID()}`, types: ["deadletter.>"], handler: async (e) => void deadLetters.push(e.type) });
    const core = platform.knexOf("core");
    await core.raw("ALTER TABLE tag_assignment RENAME TO tag_assignment_away");
    try {
      await platform.bus.publish(tagsChangedEvent({ customerId, tagType: "FILE", resourceId: randomUUID(), tags: ["outage"], teamIds: [], version: 1 }));
      await new Promise((r) => setTimeout(r, 1_500));
    } finally {
      await core.raw("ALTER TABLE tag_assignment_away RENAME TO tag_assignment");
    }
    const count = async () => (await platform.http.get("/api/tag", { token, query: { select: "fileTags" } })).body.fileTags?.outage?.count ?? 0;
    await eventually(count, (n) => n === 1, "tag counted once the table is back", 5_000);
    expect(deadLetters.filter((t) => t.includes("tags."))).toEqual([]);
    await watch.stop();
  });

  it("'DELETE ... refused while used by ... filtered folders': a quickFilter.usage.changed that failed more than maxDeliver times still lands", async () => {
    const deadLetters: string[] = [];
    const watch = await platform.bus.subscribe({ consumer: `test-deadletters-${randomUUID()}`, types: ["deadletter.>"], handler: async (e) => void deadLetters.push(e.type) });
    const core = platform.knexOf("core");
    const quickFilterId = randomUUID();
    await core.raw("ALTER TABLE quick_filter_usage RENAME TO quick_filter_usage_away");
    try {
      await platform.bus.publish(quickFilterUsageEvent({ customerId, quickFilterId, usedByType: "FILE_FOLDER", usedById: randomUUID(), used: true, version: 1 }));
      await new Promise((r) => setTimeout(r, 1_500));
    } finally {
      await core.raw("ALTER TABLE quick_filter_usage_away RENAME TO quick_filter_usage");
    }
    await eventually(() => core("quick_filter_usage").where({ quick_filter_id: quickFilterId }).first("used"), (row) => row?.used === true, "usage recorded once the table is back", 5_000);
    expect(deadLetters.filter((t) => t.includes("quickFilter."))).toEqual([]);
    await watch.stop();
  });
});
