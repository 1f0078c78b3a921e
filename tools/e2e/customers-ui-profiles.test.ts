// UI profiles over HTTP (document 3 "UI profiles (OWNER; base /api/v2/userInterfaceProfile)"):
// the documented JSON names, the assign body, and `userInterfaceProfile` on the user.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreModule } from "@signage/core";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { expectKey } from "./customers-support.js";

let platform: TestPlatform;
let admin: string;
beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], prefix: "ui_profiles_e2e" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
}, 60_000);
afterAll(() => platform?.close());

describe("UI profiles over HTTP", () => {
  it("create, keep vs replace the rules, assign by email, read it on the user, delete", async () => {
    const customer = await createCustomer(platform.http, admin);
    const owner = await createUser(platform.http, admin, customer.id, "OWNER");
    const editor = await createUser(platform.http, admin, customer.id, "EDITOR");
    const doc = { version: "2.1", dashboard: { devices: false, reports: null }, playlistEditor: { advanced: true } };

    expectKey(await platform.http.post("/api/v2/userInterfaceProfile", { token: owner.token, body: { name: "No rules" } }), 400, "userInterfaceProfile.error.rulesRequired");
    const created = await platform.http.post("/api/v2/userInterfaceProfile", { token: owner.token, body: { name: "Reception", hiddenUIElementRules: doc } });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ name: "Reception", hiddenUIElementRules: doc, customerId: customer.id });
    const id = created.body.id as number;
    expect(typeof id).toBe("number");

    const kept = await platform.http.put(`/api/v2/userInterfaceProfile/${id}`, { token: owner.token, body: { name: "Front desk" } });
    expect(kept.body).toMatchObject({ name: "Front desk", hiddenUIElementRules: doc });
    const replaced = await platform.http.put(`/api/v2/userInterfaceProfile/${id}`, { token: owner.token, body: { hiddenUIElementRules: { version: "2.1" } } });
    expect(replaced.body.hiddenUIElementRules).toEqual({ version: "2.1" });

    const assign = await platform.http.post(`/api/v2/userInterfaceProfile/${id}/assign`, { token: owner.token, body: { assignUserIds: [editor.email], removeUserIds: [] } });
    expect(assign.status, assign.text).toBe(204);
    const me = await platform.http.get("/api/v2/user/me", { token: editor.token });
    expect(me.body.userInterfaceProfile).toEqual({ id, name: "Front desk" });
    const listed = await platform.http.get("/api/v2/user", { token: owner.token, query: { search: `email=${editor.email}`, select: "email,userInterfaceProfile(id,name)" } });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.content[0].userInterfaceProfile).toEqual({ id, name: "Front desk" });

    const list = await platform.http.get("/api/v2/userInterfaceProfile", { token: owner.token });
    expect(list.body.content.map((p: { id: number }) => p.id)).toEqual([id]);
    expect((await platform.http.delete(`/api/v2/userInterfaceProfile/${id}`, { token: owner.token })).status).toBe(204);
    expect((await platform.http.get("/api/v2/user/me", { token: editor.token })).body.userInterfaceProfile).toBeUndefined();
    expectKey(await platform.http.get("/api/v2/userInterfaceProfile", { token: editor.token }), 403, "auth.error.forbidden");
  });
});
