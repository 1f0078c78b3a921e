// Every service prunes its event inbox (libs/runtime inbox-prune.ts, scheduled by startModule):
// the marks of applied events would otherwise grow the table for ever. Here with a retention of
// 1 ms and a round every 100 ms, so the prune is seen at work on media's real inbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createCustomer, eventually, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "media_inbox_prune", env: { EVENT_INBOX_RETENTION_MS: "1", EVENT_INBOX_PRUNE_INTERVAL_MS: "100" } });
}, 60_000);
afterAll(() => platform?.close());

describe("event inbox prune", () => {
  it("marks of applied events are deleted once past the retention", async () => {
    const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const customer = await createCustomer(platform.http, admin);
    const media = platform.knexOf("media");
    // customer.created applied (its mark written in the same transaction as the root folder) ...
    await eventually(() => media("file_folder").where({ customer_id: customer.id }).whereNull("parent_id").first("id"), (row) => row !== undefined, "root folder created");
    // ... and its mark pruned.
    await eventually(async () => Number((await media("event_inbox").count({ n: "*" }))[0].n), (n) => n === 0, "inbox pruned", 5_000);
    expect(Number((await media("event_inbox").count({ n: "*" }))[0].n)).toBe(0);
  });
});
