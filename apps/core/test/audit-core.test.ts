// Findings of a black-box audit of core's customers and users (seed 001: "Customer",
// "Customers", "Teams, tags, users, quick filters", "Authentication"), driven through the
// real gateway over HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { newId } from "@signage/db";
import { coreModule } from "../src/module.js";
import { errorBody } from "./error-body.js";
import { bootstrapAdmin } from "../src/users/bootstrap-admin.js";

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], prefix: "core_audit_test" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(() => platform?.close());


describe("PUT /api/customer/{id} storageSize", () => {
  // Seed "Customer": "storageSize | long | bytes, null = unlimited, ADMIN only". Once a quota was
  // set, `{"storageSize": null}` answered 200 and kept the quota: no way back to unlimited.
  it("JSON null sets it back to unlimited; absent leaves it unchanged", async () => {
    const { id } = await createCustomer(platform.http, admin, { name: "Audit Quota" });
    const set = await platform.http.put(`/api/customer/${id}`, { token: admin, body: { storageSize: 1000 } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.storageSize).toBe(1000);

    const untouched = await platform.http.put(`/api/customer/${id}`, { token: admin, body: { comment: "x" } });
    expect(untouched.status, untouched.text).toBe(200);
    expect(untouched.body.storageSize).toBe(1000);

    const cleared = await platform.http.put(`/api/customer/${id}`, { token: admin, body: { storageSize: null } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.storageSize ?? null).toBeNull();
    const listed = await platform.http.get("/api/customer", { token: admin, query: { search: `id=${id}`, select: "id,storageSize" } });
    expect(listed.body.content[0].storageSize ?? null).toBeNull();

    // 0 is a quota of no bytes, not unlimited.
    const zero = await platform.http.put(`/api/customer/${id}`, { token: admin, body: { storageSize: 0 } });
    expect(zero.status, zero.text).toBe(200);
    expect(zero.body.storageSize).toBe(0);
  });

  it("a network owner still may not set it, not even to null ('ADMIN only')", async () => {
    const net = (await createCustomer(platform.http, admin, { name: "Audit Net Quota", createAsSubreseller: true })).id;
    const owner = await createUser(platform.http, admin, net, "OWNER");
    const member = (await createCustomer(platform.http, owner.token, { name: "Audit Net Quota Member", licenseTier: "STARTER" })).id;
    for (const storageSize of [null, 10]) {
      const res = await platform.http.put(`/api/customer/${member}`, { token: owner.token, body: { storageSize } });
      expect([res.status, res.body], res.text).toEqual([400, errorBody(400, "customer.error.adminOnlyField")]);
    }
  });
});

describe("customer counts and limits are never negative", () => {
  // Seed "Customer": "freeLicenses, browserSessionLicenses, deviceSessionLimit | long | ADMIN only;
  // deviceSessionLimit 0 = unlimited", "storageSize | long | bytes, null = unlimited",
  // "resourceLimits | object | `{overrides: {<RESOURCE_KEY>: integer}}`" and Errors "A limit of
  // zero blocks creation". Negative values were stored as sent (storageSize -5 then refused
  // every upload).
  it("400 on create and update, and nothing of the request is written", async () => {
    const { id } = await createCustomer(platform.http, admin, { name: "Audit Numbers" });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ freeLicenses: -1 }, "customer.error.negativeValue"],
      [{ browserSessionLicenses: -1 }, "customer.error.negativeValue"],
      [{ deviceSessionLimit: -1 }, "customer.error.negativeValue"],
      [{ resourceLimits: { overrides: { DEVICE: -3 } } }, "customer.error.negativeValue"],
      [{ storageSize: -5 }, "customer.error.invalidStorageSize"],
      [{ storageSize: 1.5 }, "customer.error.invalidStorageSize"],
      [{ storageSize: "lots" }, "customer.error.invalidStorageSize"],
      [{ storageSize: true }, "customer.error.invalidStorageSize"],
    ];
    for (const [fields, key] of cases) {
      const updated = await platform.http.put(`/api/customer/${id}`, { token: admin, body: { comment: "must not be written", ...fields } });
      expect([updated.status, updated.body], JSON.stringify(fields)).toEqual([400, errorBody(400, key)]);
      const created = await platform.http.post("/api/customer", { token: admin, body: { name: `Audit Numbers ${key} ${JSON.stringify(fields)}`, ...fields } });
      expect([created.status, created.body], JSON.stringify(fields)).toEqual([400, errorBody(400, key)]);
    }
    const listed = await platform.http.get("/api/customer", { token: admin, query: { search: `id=${id}`, select: "comment,freeLicenses,storageSize,resourceLimits" } });
    expect(listed.body.content[0].comment).toBeUndefined();
    expect(listed.body.content[0].storageSize).toBeUndefined();
    expect((await platform.http.get("/api/customer", { token: admin, query: { search: "name^Audit Numbers ", size: 1, select: "id" } })).body.totalElements).toBe(0);

    // Zero and positive values, and the decimal-string form of an int64, are fine.
    const ok = await platform.http.put(`/api/customer/${id}`, { token: admin, body: { freeLicenses: 0, deviceSessionLimit: 0, storageSize: "2048", resourceLimits: { overrides: { DEVICE: 0 } } } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.storageSize).toBe(2048);
  });
});

describe("POST /api/user/password names a missing parameter", () => {
  // Seed "Teams, tags, users, quick filters": "Password, 2FA | POST
  // `/api/user/password?oldPassword=<p>&newPassword=<p>`". Without oldPassword (e.g. sent as a
  // JSON body) the answer was "The old password is not correct"; without newPassword "at least 8
  // characters". Both now name the missing query parameter; nothing changes.
  it("400 request.error.missingParameter with details.parameter; the password stays valid", async () => {
    const { id } = await createCustomer(platform.http, admin, { name: "Audit Password" });
    const user = await createUser(platform.http, admin, id, "VIEWER");
    const cases: Array<[Record<string, string>, string]> = [
      [{ newPassword: "new-password-1" }, "oldPassword"],
      [{ oldPassword: user.password }, "newPassword"],
      [{}, "oldPassword"],
    ];
    for (const [query, parameter] of cases) {
      const res = await platform.http.post("/api/user/password", { token: user.token, query });
      expect([res.status, res.body], res.text).toEqual([400, { ...errorBody(400, "request.error.missingParameter"), details: { parameter } }]);
    }
    const asBody = await platform.http.post("/api/user/password", { token: user.token, body: { oldPassword: user.password, newPassword: "new-password-1" } });
    expect(asBody.status, asBody.text).toBe(400);
    expect(asBody.body.key).toBe("request.error.missingParameter");
    expect(await platform.http.login(user.email, user.password)).toEqual(expect.any(String));
  });
});

describe("GET /api/v2/user select of the nested customer", () => {
  // "`select` only fields of the published schema": a user's customer is published as
  // {id, name, expirationDate, force2FA}. `customer(createdDate,freeLicenses)` answered 200 with
  // `customer: {id}`, the named fields silently dropped.
  it("names only the published nested fields (400 select.error.unknownField otherwise); search still reaches any customer field", async () => {
    const refused = await platform.http.get("/api/v2/user", { token: admin, query: { select: "email,customer(createdDate,freeLicenses)" } });
    expect([refused.status, refused.body], refused.text).toEqual([400, errorBody(400, "select.error.unknownField")]);
    expect(refused.body.message).toContain("'customer.createdDate'");
    expect(refused.body.message).toContain("customer.id, customer.name, customer.expirationDate, customer.force2FA");
    const ok = await platform.http.get("/api/v2/user", { token: admin, query: { select: "email,customer(name,force2FA),userInterfaceProfile(name)", size: "1" } });
    expect(ok.status, ok.text).toBe(200);
    expect(Object.keys(ok.body.content[0].customer).sort()).toEqual(["force2FA", "id", "name"]);
    const searched = await platform.http.get("/api/v2/user", { token: admin, query: { search: "customer.freeLicenses=NULL|customer.freeLicenses>-1", select: "email", size: "1" } });
    expect(searched.status, searched.text).toBe(200);
  });
});

describe("POST /api/v2/user/profilePicture size limit", () => {
  // A profile picture holds at most 2 MiB (MAX_PROFILE_PICTURE_BYTES). The gateway refused a
  // larger one saying "The file exceeds 2097153 bytes": a limit one byte off the real one.
  it("2 MiB is stored; one byte more is 413 upload.error.payloadTooLarge naming 2097152 bytes", async () => {
    const user = (await platform.http.get("/api/v2/user/me", { token: admin })).body;
    const picture = (size: number) => {
      const data = Buffer.alloc(size);
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(data);
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(data)], { type: "image/png" }), "me.png");
      return platform.http.post("/api/v2/user/profilePicture", { token: admin, body: form });
    };
    const fits = await picture(2 * 1024 * 1024);
    expect(fits.status, fits.text).toBe(200);
    expect(fits.body.email).toBe(user.email);
    for (const size of [2 * 1024 * 1024 + 1, 2 * 1024 * 1024 + 2, 3 * 1024 * 1024]) {
      const over = await picture(size);
      expect([over.status, over.body], over.text).toEqual([413, errorBody(413, "upload.error.payloadTooLarge")]);
      expect(over.body.message).toContain("2097152 bytes");
      expect(over.body.details).toEqual({ maxBytes: 2097152 });
    }
  });
});

// Last: it deletes TEST_ADMIN.
describe("the last ADMIN cannot be deleted", () => {
  // Scoping table "ADMIN | all tenants (global)"; Customers: "Promote / demote network owner
  // (ADMIN)", "ownerSubresellerId (ADMIN), resourceLimits (ADMIN)". Deleting the only ADMIN
  // (DELETE /api/user/?email=<own email> or DELETE /api/user/myAccount) answered 204 and left a
  // platform nobody can administer.
  it("409 user.error.lastAdmin for both delete paths while it is the only one; allowed once another ADMIN exists", async () => {
    const own = await platform.http.delete("/api/user/myAccount", { token: admin });
    expect([own.status, own.body], own.text).toEqual([409, errorBody(409, "user.error.lastAdmin")]);
    const byEmail = await platform.http.delete("/api/user/", { token: admin, query: { email: TEST_ADMIN.email } });
    expect([byEmail.status, byEmail.body], byEmail.text).toEqual([409, errorBody(409, "user.error.lastAdmin")]);
    expect((await platform.http.get("/api/v2/user/me", { token: admin })).status).toBe(200);

    const me = (await platform.http.get("/api/v2/user/me", { token: admin })).body;
    const second = await createUser(platform.http, admin, me.customer.id, "ADMIN");
    const gone = await platform.http.delete("/api/user/", { token: second.token, query: { email: TEST_ADMIN.email } });
    expect(gone.status, gone.text).toBe(204);

    const last = await platform.http.delete("/api/user/myAccount", { token: second.token });
    expect([last.status, last.body], last.text).toEqual([409, errorBody(409, "user.error.lastAdmin")]);
    expect((await platform.http.get("/api/v2/user/me", { token: second.token })).status).toBe(200);
  });
});

// After the block above: TEST_ADMIN (the bootstrap account) is deleted and another ADMIN remains.
describe("the bootstrap admin is a first start's account, not a standing one", () => {
  // "Bootstrap super admin from ADMIN_EMAIL / ADMIN_PASSWORD (dev defaults admin@example.com /
  // admin-change-me)". Each start used to recreate that email's account whenever it was missing,
  // so an ADMIN deleting the default account got it back, default password included, at the next start.
  it("is not recreated at start while another ADMIN exists; is created when the platform has none", async () => {
    const knex = platform.knexOf("core");
    expect(await bootstrapAdmin(knex, newId, TEST_ADMIN.email, TEST_ADMIN.password, async () => undefined)).toEqual({ created: false });
    await expect(platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password)).rejects.toThrow(/login .* failed/);

    // A platform whose admins were all demoted (by hand, in the database) gets one again.
    const demoted = await knex("app_user").where({ role: "ADMIN" }).update({ role: "OWNER" }).returning("id");
    try {
      expect(await bootstrapAdmin(knex, newId, TEST_ADMIN.email, TEST_ADMIN.password, async () => undefined)).toEqual({ created: true });
      expect((await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password)).length).toBeGreaterThan(0);
    } finally {
      await knex("app_user").whereIn("id", demoted.map((r: { id: string }) => r.id)).update({ role: "ADMIN" });
    }
  });
});
