// Review of issue 4 against document 2 ("User", "Customer", list conventions):
// computed fields must be selectable in lists, and immutable fields stay put.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { currentTotpCode } from "@signage/auth";
import { coreModule } from "../src/module.js";

let platform: TestPlatform;
let admin: string;
let customerId: number;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], prefix: "core_review_test" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  customerId = (await createCustomer(platform.http, admin, { name: "Review Co" })).id;
});
afterAll(() => platform?.close());

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const COMPUTED = ["hasProfilePicture", "profilePictureApiPath", "active", "microsoftSsoEnabled", "pinCodePresent"] as const;

describe("review fixes", () => {
  it("User 'hasProfilePicture, profilePictureApiPath, active, microsoftSsoEnabled, pinCodePresent | computed'; 'computed and select-only fields must be named explicitly': a list renders them as the single read does", async () => {
    const owner = await createUser(platform.http, admin, customerId, "OWNER");
    // An email with characters that need encoding in the picture path.
    const email = "pic+tag@review.test";
    const created = await platform.http.post("/api/user/", { token: owner.token, query: { customerId }, body: { email, role: "VIEWER", password: "password-123" } });
    expect(created.status, created.text).toBe(200);
    const viewer = await platform.http.login(email, "password-123");
    const form = new FormData();
    form.append("file", new Blob([PNG], { type: "image/png" }), "me.png");
    const uploaded = await platform.http.post("/api/v2/user/profilePicture", { token: viewer, body: form });
    expect(uploaded.status, uploaded.text).toBe(200);

    const me = (await platform.http.get("/api/v2/user/me", { token: viewer })).body;
    expect(me).toMatchObject({ hasProfilePicture: true, active: true, microsoftSsoEnabled: false, pinCodePresent: false });
    expect(me.profilePictureApiPath).toBe("/api/v2/user/profilePicture?email=pic%2Btag%40review.test");

    const list = await platform.http.get("/api/v2/user", { token: owner.token, query: { search: `email=${email}`, select: `email,${COMPUTED.join(",")}` } });
    expect(list.status, list.text).toBe(200);
    expect(list.body.content).toHaveLength(1);
    for (const field of COMPUTED) expect(list.body.content[0][field], field).toEqual(me[field]);

    // Without a picture the path is absent and the flag false, in the list as in the single read.
    const plain = await platform.http.get("/api/v2/user", { token: owner.token, query: { search: `email=${owner.email}`, select: "email,hasProfilePicture,profilePictureApiPath" } });
    expect(plain.body.content[0]).toEqual({ id: expect.any(String), email: owner.email, hasProfilePicture: false });
    // `*` keeps computed fields out.
    const star = await platform.http.get("/api/v2/user", { token: owner.token, query: { search: `email=${email}`, select: "*" } });
    expect(star.body.content[0].hasProfilePicture).toBeUndefined();
  });

  it("User 'active' is computed from the customer: false once the customer is restricted ('restricted: true disables all access')", async () => {
    const other = (await createCustomer(platform.http, admin, { name: "Review Restricted" })).id;
    const viewer = await createUser(platform.http, admin, other, "VIEWER");
    const select = { search: `email=${viewer.email}`, select: "email,active", customerId: other };
    expect((await platform.http.get("/api/v2/user", { token: admin, query: select })).body.content[0].active).toBe(true);
    expect((await platform.http.put(`/api/customer/${other}`, { token: admin, body: { restricted: true } })).status).toBe(200);
    expect((await platform.http.get("/api/v2/user", { token: admin, query: select })).body.content[0].active).toBe(false);
  });

  it("User 'authProvider ... immutable': an update naming another provider is refused (400 user.error.authProviderImmutable); repeating it is fine", async () => {
    const owner = await createUser(platform.http, admin, customerId, "OWNER");
    const viewer = await createUser(platform.http, admin, customerId, "VIEWER");
    const changed = await platform.http.put("/api/user/", { token: owner.token, query: { email: viewer.email }, body: { authProvider: "LDAP" } });
    expect(changed.status).toBe(400);
    expect(changed.body.key).toBe("user.error.authProviderImmutable");
    const same = await platform.http.put("/api/user/", { token: owner.token, query: { email: viewer.email }, body: { authProvider: "LOCAL", name: "Same" } });
    expect(same.status, same.text).toBe(200);
    expect(same.body).toMatchObject({ authProvider: "LOCAL", name: "Same" });
  });

  it("'Sensitive operations (user create/update/delete, ...) may require ... a TOTP code in header x-totp': deleting one's own account too", async () => {
    const viewer = await createUser(platform.http, admin, customerId, "VIEWER");
    const start = await platform.http.post("/api/user/2fa", { token: viewer.token, query: { enable: true } });
    expect(start.status, start.text).toBe(200);
    const secret = start.body.secret as string;
    // Codes are one-time (RFC 6238 5.2): confirmation, login and x-totp use three successive time steps.
    const confirm = await platform.http.post("/api/user/2fa", { token: viewer.token, query: { enable: true, totp: currentTotpCode(secret, Date.now() - 30_000) } });
    expect(confirm.body.use2FA).toBe(true);
    const login = await platform.http.post("/oauth/token", {
      body: new URLSearchParams({ grant_type: "password", username: viewer.email, password: viewer.password, totp: currentTotpCode(secret) }),
    });
    expect(login.status, login.text).toBe(200);
    const token = login.body.access_token as string;

    const without = await platform.http.delete("/api/user/myAccount", { token });
    expect(without.status).toBe(403);
    expect(without.body.key).toBe("auth.error.totpRequired");
    const withCode = await platform.http.delete("/api/user/myAccount", { token, headers: { "x-totp": currentTotpCode(secret, Date.now() + 30_000) } });
    expect(withCode.status, withCode.text).toBe(204);
  });

  it("Customer 'activeLicenses, totalLicenses | computed': selectable in the customer list, as the single customer renders them", async () => {
    const res = await platform.http.get("/api/customer", { token: admin, query: { search: `id=${customerId}`, select: "id,activeLicenses,totalLicenses" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.content).toEqual([{ id: customerId, activeLicenses: 0, totalLicenses: 0 }]);
  });
});
