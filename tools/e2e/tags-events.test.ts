// Tag counts and quick filter usage across services over real NATS JetStream:
// a producing service enqueues with the libs/runtime helpers into its outbox in
// the transaction of the change, its relay publishes after commit, core's
// indexes follow, nothing is published for a rolled-back transaction.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createOutbox, type Outbox } from "@signage/events";
import { enqueueQuickFilterUsage, enqueueTagsChanged } from "@signage/runtime";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";

describe("tags and quick filter usage over JetStream", () => {
  let platform: TestPlatform;
  let customerId: number;
  let editor: TenantUser;
  // Writes into media's event_outbox; not started: the media module's relay publishes the rows.
  let outbox: Outbox;

  beforeAll(async () => {
    platform = await startPlatform({ modules: [coreModule, mediaModule], bus: "jetstream", prefix: "tags_e2e" });
    const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    customerId = (await createCustomer(platform.http, admin)).id;
    editor = await createUser(platform.http, admin, customerId, "EDITOR");
    outbox = createOutbox({ knex: platform.knexOf("media"), bus: platform.bus });
  }, 120_000);
  afterAll(() => platform?.close());

  async function eventually<T>(read: () => Promise<T>, check: (v: T) => boolean): Promise<T> {
    let value!: T;
    for (let i = 0; i < 150; i++) {
      value = await read();
      if (check(value)) return value;
      await new Promise((r) => setTimeout(r, 40));
    }
    throw new Error(`condition never held; last: ${JSON.stringify(value)}`);
  }

  it("counts follow a producer's tags.changed from its outbox; a rolled-back transaction publishes nothing", async () => {
    const media = platform.knexOf("media");
    const committed = randomUUID();
    await media.transaction(async (trx) => {
      await enqueueTagsChanged(outbox, trx, { customerId, tagType: "FILE", resourceId: committed, tags: ["e2e-kept"], version: 1 });
    });
    await media
      .transaction(async (trx) => {
        await enqueueTagsChanged(outbox, trx, { customerId, tagType: "FILE", resourceId: randomUUID(), tags: ["e2e-rolled-back"], version: 1 });
        throw new Error("rollback");
      })
      .catch(() => undefined);
    const tags = await eventually(
      () => platform.http.get("/api/tag", { token: editor.token, query: { select: "fileTags" } }),
      (r) => r.body.fileTags?.["e2e-kept"]?.count === 1,
    );
    expect(tags.body.fileTags["e2e-rolled-back"]).toBeUndefined();
    const refused = await platform.http.delete("/api/tag", { token: editor.token, query: { tag: "e2e-kept", tagType: "FILE" } });
    expect([refused.status, refused.body.key]).toEqual([409, "tag.error.inUse"]);
  });

  it("a filtered folder's usage (quickFilter.usage.changed) blocks the quick filter's deletion until it is released", async () => {
    const created = await platform.http.post("/api/quickFilter/", { token: editor.token, body: { name: "e2e", filteredEntityType: "FILE", criteria: { tags: ["e2e-kept"] } } });
    expect(created.status, created.text).toBe(200);
    const id = created.body.id as string;
    const folderId = randomUUID();
    const core = platform.knexOf("core");
    const usage = (used: boolean, version: number) =>
      platform.knexOf("media").transaction(async (trx) => {
        await enqueueQuickFilterUsage(outbox, trx, { customerId, quickFilterId: id, usedByType: "FILE_FOLDER", usedById: folderId, used, version });
      });
    await usage(true, 1);
    await eventually(() => core("quick_filter_usage").where({ quick_filter_id: id, used: true }).first(), (row) => row !== undefined);
    const refused = await platform.http.delete("/api/quickFilter/", { token: editor.token, query: { quickFilterId: id } });
    expect([refused.status, refused.body.key]).toEqual([409, "quickFilter.error.inUse"]);
    await usage(false, 2);
    await eventually(() => core("quick_filter_usage").where({ quick_filter_id: id, used: true }).first(), (row) => row === undefined);
    expect((await platform.http.delete("/api/quickFilter/", { token: editor.token, query: { quickFilterId: id } })).status).toBe(204);
  });
});
