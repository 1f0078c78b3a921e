// "Creating a customer auto-creates a root deviceGroup, root fileFolder and a content folder named
// Templates": the platform customer, which core's bootstrap creates, included. Its root file folder
// is media's, made from `customer.created` like any customer's; the bootstrap never announced it, so
// the platform had no root file folder (and no tenant row in media) until a first upload.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { coreModule } from "@signage/core";
import { mediaModule } from "../src/module.js";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "media_platform_root" });
}, 60_000);
afterAll(() => platform?.close());

describe("the platform customer", () => {
  it("gets its root file folder and media's tenant row from the bootstrap's customer.created", async () => {
    const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const me = await platform.http.get("/api/v2/user/me", { token: admin });
    const customerId = me.body.customer.id as number;
    const roots = await eventually(
      () => platform.http.get("/api/v2/fileFolder", { token: admin, query: { search: "parentId=NULL", customerId: String(customerId) } }),
      (r) => r.status === 200 && r.body.content.length > 0,
      "platform root file folder",
    );
    expect(roots.body.content).toHaveLength(1);
    expect(await platform.knexOf("media")("tenant").where({ customer_id: customerId }).first("customer_id")).toBeDefined();
  });
});
