// Customers over HTTP (document 2 "Customer", "Customer scoping", "States and transitions"):
// blocked customers refused at once in every service, network owners managing only their
// members, promote/demote/move, filters, ADMIN-only fields, branding read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { eventually, expectKey, loginFull } from "./customers-support.js";

let platform: TestPlatform;
let admin: string;
beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "customers_e2e" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
}, 60_000);
afterAll(() => platform?.close());

const me = (token: string) => platform.http.get("/api/v2/user/me", { token });
const folders = (token: string) => platform.http.get("/api/v2/fileFolder", { token, query: { search: "parentId=NULL" } });

/** A network owner customer with a logged-in OWNER. */
async function networkOwner(name: string) {
  const customer = await createCustomer(platform.http, admin, { name, createAsSubreseller: true });
  const owner = await createUser(platform.http, admin, customer.id, "OWNER");
  return { id: customer.id as number, token: owner.token, owner };
}

describe("blocked customers: refused at once, in every service", () => {
  it("'restricted: true disables all access': the customer's valid token is refused on its next call (core at once, media as soon as customer.updated arrives); login too; lifting it restores access", async () => {
    const customer = await createCustomer(platform.http, admin);
    const viewer = await createUser(platform.http, admin, customer.id, "VIEWER");
    expect((await me(viewer.token)).status).toBe(200);
    expect((await eventually(() => folders(viewer.token), (r) => r.body?.content?.length === 1)).response.status).toBe(200);

    const put = await platform.http.put(`/api/customer/${customer.id}`, { token: admin, body: { restricted: true } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.restricted).toBe(true);

    // Core: the very next call.
    expectKey(await me(viewer.token), 403, "auth.error.customerRestricted");
    // Media: from its replica, fed by customer.updated.
    const media = await eventually(() => folders(viewer.token), (r) => r.status === 403);
    expectKey(media.response, 403, "auth.error.customerRestricted");
    console.info(`media refused the restricted customer's token ${media.ms} ms after the update`);
    // No new tokens either.
    const login = await platform.http.post("/oauth/token", { body: new URLSearchParams({ grant_type: "password", username: viewer.email, password: viewer.password }) });
    expectKey(login, 403, "oauth.error.access_denied");

    await platform.http.put(`/api/customer/${customer.id}`, { token: admin, body: { restricted: false } });
    expect((await me(viewer.token)).status).toBe(200);
    expect((await eventually(() => folders(viewer.token), (r) => r.status === 200)).response.status).toBe(200);
  });

  it("'expiration triggers device lockout' (restricted: 'all access blocked'; expiration: 'device lockout'): past the date the customer's users keep working, refresh too; 0 clears the date", async () => {
    const customer = await createCustomer(platform.http, admin);
    const viewer = await createUser(platform.http, admin, customer.id, "VIEWER");
    const tokens = await loginFull(platform.http, viewer.email, viewer.password);
    const expiresAt = Date.now() + 500;
    const put = await platform.http.put(`/api/customer/${customer.id}`, { token: admin, body: { expirationDate: expiresAt } });
    expect(put.body.expirationDate).toBe(expiresAt);
    await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now() + 50)));
    // Users are no devices: every service still answers them (devices are refused: libs/auth customer-access test).
    expect((await me(tokens.access)).status).toBe(200);
    expect((await eventually(() => folders(tokens.access), (r) => r.status === 200)).response.status).toBe(200);
    const refresh = await platform.http.post("/oauth/token", { body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh }) });
    expect(refresh.status, refresh.text).toBe(200);

    const cleared = await platform.http.put(`/api/customer/${customer.id}`, { token: admin, body: { expirationDate: 0 } });
    expect(cleared.body.expirationDate).toBeUndefined();
  });

  it("a customer's own OWNER cannot lift its restriction or expiration, nor change its tier (only ADMIN or its network owner)", async () => {
    const customer = await createCustomer(platform.http, admin);
    const owner = await createUser(platform.http, admin, customer.id, "OWNER");
    for (const body of [{ expirationDate: Date.now() + 86_400_000 }, { restricted: false }, { licenseTier: "ENTERPRISE" }]) {
      expectKey(await platform.http.put(`/api/customer/${customer.id}`, { token: owner.token, body }), 400, "customer.error.managerOnlyField");
    }
    const ok = await platform.http.put(`/api/customer/${customer.id}`, { token: owner.token, body: { comment: "own comment", force2FA: false } });
    expect(ok.status, ok.text).toBe(200);
  });
});

describe("network owners", () => {
  it("a network owner manages only its members: lists, updates, restricts and deletes them; outsiders are invisible", async () => {
    const no = await networkOwner("E2E Net One");
    const created = await platform.http.post("/api/customer", { token: no.token, body: { name: "E2E Member One", licenseTier: "STARTER" } });
    expect(created.status, created.text).toBe(200);
    // "A network owner creating a customer gets ownerSubresellerId set to its own id"
    expect(created.body).toMatchObject({ ownerSubresellerId: no.id, ownerSubresellerName: "E2E Net One", licenseTier: "STARTER" });
    const member = created.body.id as number;
    const outsider = await createCustomer(platform.http, admin, { name: "E2E Outsider" });

    const list = await platform.http.get("/api/customer", { token: no.token, query: { size: 100 } });
    const ids = list.body.content.map((c: { id: number }) => c.id);
    expect(ids).toEqual(expect.arrayContaining([no.id, member]));
    expect(ids).not.toContain(outsider.id);
    expectKey(await platform.http.get("/api/customer", { token: no.token, query: { customerId: outsider.id } }), 403, "customer.error.notOwned");

    expect((await platform.http.put(`/api/customer/${member}`, { token: no.token, body: { comment: "managed" } })).body.comment).toBe("managed");
    expectKey(await platform.http.put(`/api/customer/${outsider.id}`, { token: no.token, body: { comment: "x" } }), 404, "customer.error.notFound");
    expectKey(await platform.http.delete(`/api/customer/${outsider.id}`, { token: no.token }), 404, "customer.error.notFound");
    // "cannot create or convert Enterprise customers"; "cannot set freeLicenses or browserSessionLicenses"
    expectKey(await platform.http.put(`/api/customer/${member}`, { token: no.token, body: { licenseTier: "ENTERPRISE" } }), 400, "customer.error.licenseTierNotAllowed");
    expectKey(await platform.http.put(`/api/customer/${member}`, { token: no.token, body: { browserSessionLicenses: 3 } }), 400, "customer.error.adminOnlyField");

    // Users of a member: reachable with customerId; of an outsider: refused.
    const memberUser = await createUser(platform.http, admin, member, "VIEWER");
    const users = await platform.http.get("/api/v2/user", { token: no.token, query: { customerId: member } });
    expect(users.body.content.map((u: { email: string }) => u.email)).toContain(memberUser.email);
    expectKey(await platform.http.get("/api/v2/user", { token: no.token, query: { customerId: outsider.id } }), 403, "customer.error.notOwned");

    // The network owner restricts its member: the member's token is refused at once.
    await platform.http.put(`/api/customer/${member}`, { token: no.token, body: { restricted: true } });
    expectKey(await me(memberUser.token), 403, "auth.error.customerRestricted");

    // Lower roles of the network owner cannot manage customers.
    const viewer = await createUser(platform.http, admin, no.id, "VIEWER");
    expectKey(await platform.http.post("/api/customer", { token: viewer.token, body: { name: "Nope", licenseTier: "STARTER" } }), 403, "auth.error.forbidden");

    const del = await platform.http.delete(`/api/customer/${member}`, { token: no.token });
    expect(del.status, del.text).toBe(204);
    const after = await platform.http.get("/api/customer", { token: no.token, query: { size: 100 } });
    expect(after.body.content.map((c: { id: number }) => c.id)).not.toContain(member);
  });

  it("'A network owner creating a customer ... must state licenseTier as STARTER or BUSINESS', cannot set freeLicenses, cannot create network owners", async () => {
    const no = await networkOwner("E2E Net Two");
    expectKey(await platform.http.post("/api/customer", { token: no.token, body: { name: "E2E NT Ent", licenseTier: "ENTERPRISE" } }), 400, "customer.error.licenseTierNotAllowed");
    expectKey(await platform.http.post("/api/customer", { token: no.token, body: { name: "E2E NT None" } }), 400, "customer.error.licenseTierRequired");
    expectKey(await platform.http.post("/api/customer", { token: no.token, body: { name: "E2E NT Free", licenseTier: "BUSINESS", freeLicenses: 2 } }), 400, "customer.error.adminOnlyField");
    expectKey(await platform.http.post("/api/customer", { token: no.token, body: { name: "E2E NT Sub", licenseTier: "BUSINESS", createAsSubreseller: true } }), 400, "customer.error.adminOnlyField");
    const ok = await platform.http.post("/api/customer", { token: no.token, body: { name: "E2E NT Biz", licenseTier: "BUSINESS", ownerSubresellerId: no.id } });
    expect(ok.status, ok.text).toBe(200);
  });

  it("promote / demote ('refused while it owns customers') / move; a demoted owner's old token loses its powers at once", async () => {
    const plain = await createCustomer(platform.http, admin, { name: "E2E Becomes Owner" });
    const owner = await createUser(platform.http, admin, plain.id, "OWNER");
    // Not a network owner yet: cannot create customers.
    expectKey(await platform.http.post("/api/customer", { token: owner.token, body: { name: "E2E Early", licenseTier: "STARTER" } }), 403, "auth.error.forbidden");
    const promoted = await platform.http.post(`/api/customer/${plain.id}/promoteAsSubreseller`, { token: admin });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.body.subreseller).toMatchObject({ id: plain.id });
    // The token issued before the promotion now acts as a network owner (current status, not the claim).
    const first = await platform.http.post("/api/customer", { token: owner.token, body: { name: "E2E Promoted Member", licenseTier: "STARTER" } });
    expect(first.status, first.text).toBe(200);

    const loose = await createCustomer(platform.http, admin, { name: "E2E Loose" });
    const moved = await platform.http.put(`/api/customer/${loose.id}/moveToSubreseller`, { token: admin, query: { subresellerId: plain.id } });
    expect(moved.body.ownerSubresellerId).toBe(plain.id);
    const seen = await platform.http.get("/api/customer", { token: owner.token, query: { size: 100 } });
    expect(seen.body.content.map((c: { id: number }) => c.id)).toContain(loose.id);
    // Only ADMIN moves and promotes.
    expectKey(await platform.http.put(`/api/customer/${loose.id}/moveToSubreseller`, { token: owner.token }), 403, "auth.error.forbidden");

    expectKey(await platform.http.post(`/api/customer/${plain.id}/removeSubresellerPrivilege`, { token: admin }), 409, "customer.error.subresellerHasCustomers");
    // "without the parameter it removes the customer from its owner"
    for (const id of [loose.id, first.body.id]) {
      const out = await platform.http.put(`/api/customer/${id}/moveToSubreseller`, { token: admin });
      expect(out.body.ownerSubresellerId).toBeUndefined();
    }
    const demoted = await platform.http.post(`/api/customer/${plain.id}/removeSubresellerPrivilege`, { token: admin });
    expect(demoted.status, demoted.text).toBe(200);
    expect(demoted.body.subreseller).toBeUndefined();
    expectKey(await platform.http.post("/api/customer", { token: owner.token, body: { name: "E2E Late", licenseTier: "STARTER" } }), 403, "auth.error.forbidden");
    const own = await platform.http.get("/api/customer", { token: owner.token, query: { size: 100 } });
    expect(own.body.content.map((c: { id: number }) => c.id)).toEqual([plain.id]);
  });

  it("filters 'ownerSubresellerId=<id>' and 'subreseller=!NULL'; computed ownerSubresellerName; ADMIN-only fields refused to others, set by ADMIN", async () => {
    const no = await networkOwner("E2E Net Filter");
    const m1 = (await platform.http.post("/api/customer", { token: no.token, body: { name: "E2E F1", licenseTier: "STARTER" } })).body;
    const m2 = (await platform.http.post("/api/customer", { token: no.token, body: { name: "E2E F2", licenseTier: "BUSINESS" } })).body;
    const byOwner = await platform.http.get("/api/customer", { token: admin, query: { search: `ownerSubresellerId=${no.id}`, size: 100 } });
    expect(byOwner.status, byOwner.text).toBe(200);
    expect(byOwner.body.content.map((c: { id: number }) => c.id).sort()).toEqual([m1.id, m2.id].sort());
    const named = await platform.http.get("/api/customer", { token: admin, query: { search: `ownerSubresellerId=${no.id}`, select: "name,ownerSubresellerName" } });
    expect(named.body.content[0].ownerSubresellerName).toBe("E2E Net Filter");

    const owners = await platform.http.get("/api/customer", { token: admin, query: { search: "subreseller=!NULL", size: 100 } });
    expect(owners.status, owners.text).toBe(200);
    const ownerIds = owners.body.content.map((c: { id: number }) => c.id);
    expect(ownerIds).toContain(no.id);
    expect(ownerIds).not.toContain(m1.id);
    // "subreseller (object, present when the customer is a network owner)", rendered when selected.
    const withObject = await platform.http.get("/api/customer", { token: admin, query: { search: `id=${no.id}`, select: "name,subreseller" } });
    expect(withObject.body.content[0].subreseller).toEqual({ id: no.id, ownedCustomerCount: 2 });
    const plain = await platform.http.get("/api/customer", { token: admin, query: { search: `id=${m1.id}`, select: "name,subreseller" } });
    expect(plain.body.content[0].subreseller).toBeUndefined();

    // "Fields that only ADMIN may set ... are ... refused (400) for anyone else"
    for (const body of [{ needsToBeInvoiced: true }, { resourceLimits: { overrides: { DEVICE: 5 } } }, { deviceSessionLimit: 2 }, { storageSize: 1000 }, { freeLicenses: 1 }]) {
      expectKey(await platform.http.put(`/api/customer/${m1.id}`, { token: no.token, body }), 400, "customer.error.adminOnlyField");
    }
    const set = await platform.http.put(`/api/customer/${m1.id}`, { token: admin, body: { needsToBeInvoiced: true, storageSize: 1000, resourceLimits: { overrides: { DEVICE: 5 } } } });
    expect(set.body).toMatchObject({ needsToBeInvoiced: true, storageSize: 1000, resourceLimits: { overrides: { DEVICE: 5 } } });
  });

  it("branding read via '/api/customer/select': scoped like any customer read", async () => {
    const no = await networkOwner("E2E Net Brand");
    const member = (await platform.http.post("/api/customer", { token: no.token, body: { name: "E2E Brand Member", licenseTier: "STARTER" } })).body;
    const outsider = await createCustomer(platform.http, admin, { name: "E2E Brand Outsider" });
    const kit = { id: "kit-1", companyName: "Brand Member Ltd", colorPalettes: [{ name: "main", colors: ["#112233"] }] };
    // "writes are not exposed": operators store kits directly.
    await platform.knexOf("core")("customer").where({ id: member.id }).update({ branding_guideline: JSON.stringify({ kits: [kit] }) });
    const read = await platform.http.get("/api/customer/select", { token: no.token, query: { customerId: member.id } });
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual({ brandingGuideline: { kits: [kit] } });
    const own = await platform.http.get("/api/customer/select", { token: no.token });
    expect(own.body).toEqual({ brandingGuideline: { kits: [] } });
    expectKey(await platform.http.get("/api/customer/select", { token: no.token, query: { customerId: outsider.id } }), 403, "customer.error.notOwned");
  });
});
