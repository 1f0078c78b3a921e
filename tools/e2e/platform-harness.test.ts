// The HTTP test platform (libs/testing) itself: modules up on a fresh database,
// the gateway on port 0, tenants and users made through the public API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";

describe("test platform", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "harness_test" });
  }, 60_000);
  afterAll(() => platform?.close());

  it("serves the API: admin login, a customer, a user of it, the customer's root folder", async () => {
    const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const customer = await createCustomer(platform.http, admin);
    const viewer = await createUser(platform.http, admin, customer.id, "VIEWER");
    const me = await platform.http.get("/api/v2/user/me", { token: viewer.token });
    expect(me.status).toBe(200);
    expect(me.body.customer?.id ?? me.body.customerId, JSON.stringify(me.body)).toBe(customer.id);
    let folders;
    for (let i = 0; i < 50; i++) {
      folders = await platform.http.get("/api/v2/fileFolder", { token: viewer.token, query: { search: "parentId=NULL" } });
      if (folders.body.content?.length) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(folders!.status).toBe(200);
    expect(folders!.body.content).toHaveLength(1);
  });
});
