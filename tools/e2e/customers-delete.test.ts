// "Deleting a customer cascades to every service through an event; nothing of it remains
// readable afterwards" (document 2 "Customers": "Delete ... cascades to devices, content,
// data sources, channels").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { eventually, expectKey, loginFull } from "./customers-support.js";

let platform: TestPlatform;
let admin: string;
beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "customers_delete_e2e" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
}, 60_000);
afterAll(() => platform?.close());

describe("customer deletion", () => {
  it("core drops users, tokens, folders and UI profiles in one statement; media drops its folders on customer.deleted; the customer's tokens are refused everywhere", async () => {
    const customer = await createCustomer(platform.http, admin, { name: "E2E Doomed" });
    const keep = await createCustomer(platform.http, admin, { name: "E2E Survivor" });
    const owner = await createUser(platform.http, admin, customer.id, "OWNER");
    const survivor = await createUser(platform.http, admin, keep.id, "OWNER");
    const tokens = await loginFull(platform.http, owner.email, owner.password);

    // Data in core (a UI profile assigned to the user) and in media (the root file folder).
    const profile = await platform.http.post("/api/v2/userInterfaceProfile", { token: owner.token, body: { name: "Doomed UI", hiddenUIElementRules: { version: "2.1" } } });
    expect(profile.status, profile.text).toBe(200);
    await platform.http.post(`/api/v2/userInterfaceProfile/${profile.body.id}/assign`, { token: owner.token, body: { assignUserIds: [owner.email] } });
    const root = await eventually(
      () => platform.http.get("/api/v2/fileFolder", { token: owner.token, query: { search: "parentId=NULL" } }),
      (r) => r.body?.content?.length === 1,
    );
    expect(root.response.body.content).toHaveLength(1);
    const survivorFolders = await eventually(
      () => platform.http.get("/api/v2/fileFolder", { token: survivor.token }),
      (r) => r.body?.content?.length >= 1,
    );

    const del = await platform.http.delete(`/api/customer/${customer.id}`, { token: admin });
    expect(del.status, del.text).toBe(204);

    // Core: at once. The token is refused, refresh is refused, nothing is readable.
    expectKey(await platform.http.get("/api/v2/user/me", { token: owner.token }), 401, "auth.error.customerDeleted");
    const refresh = await platform.http.post("/oauth/token", { body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh }) });
    expect(refresh.status).toBe(400);
    const listed = await platform.http.get("/api/customer", { token: admin, query: { search: `id=${customer.id}` } });
    expect(listed.body.content).toEqual([]);
    const core = platform.knexOf("core");
    for (const table of ["app_user", "api_client", "device_group", "content_group", "ui_profile"]) {
      expect(await core(table).where({ customer_id: customer.id }), table).toHaveLength(0);
    }
    expect(await core("refresh_token as t").join("app_user as u", "u.id", "t.user_id").where("u.customer_id", customer.id)).toHaveLength(0);

    // Media: once customer.deleted arrived, its rows are gone and the token is refused there too. Core
    // deletes the users with the customer, so their own deletions may reach media first: the token is
    // then refused as a deleted user's (401 auth.error.userDeleted) until customer.deleted arrives.
    const media = await eventually(
      () => platform.http.get("/api/v2/fileFolder", { token: owner.token }),
      (r) => r.status === 401 && r.body?.key === "auth.error.customerDeleted",
    );
    expectKey(media.response, 401, "auth.error.customerDeleted");
    console.info(`media refused the deleted customer's token ${media.ms} ms after the delete`);
    expect(await platform.knexOf("media")("file_folder").where({ customer_id: customer.id })).toHaveLength(0);
    const adminView = await platform.http.get("/api/v2/fileFolder", { token: admin, query: { customerId: customer.id } });
    expect(adminView.body.content ?? []).toEqual([]);

    // Another customer is untouched.
    const after = await platform.http.get("/api/v2/fileFolder", { token: survivor.token });
    expect(after.body.content).toHaveLength(survivorFolders.response.body.content.length);
    expect((await platform.http.get("/api/v2/user/me", { token: survivor.token })).status).toBe(200);
  });

  it("a network owner still owning customers cannot be deleted; the platform customer and the caller's own customer cannot be deleted", async () => {
    const no = await createCustomer(platform.http, admin, { name: "E2E Del Owner", createAsSubreseller: true });
    await platform.http.post("/api/customer", { token: admin, body: { name: "E2E Del Member", ownerSubresellerId: no.id } });
    expectKey(await platform.http.delete(`/api/customer/${no.id}`, { token: admin }), 409, "customer.error.subresellerHasCustomers");
    const me = await platform.http.get("/api/v2/user/me", { token: admin });
    expectKey(await platform.http.delete(`/api/customer/${me.body.customer.id}`, { token: admin }), 409, "customer.error.cannotDeleteOwn");
  });
});
