// Fresh-eyes review of core against document 2 (seed 001), over HTTP through the real gateway:
// customer counts too large to read back, expiration dates PostgreSQL cannot store, and the
// password length rule counted in characters.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { TIMESTAMP_MAX_MS, TIMESTAMP_MIN_MS } from "@signage/query";
import { coreModule } from "../src/module.js";
import { errorBody } from "./error-body.js";

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], prefix: "core_review_numbers" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(() => platform?.close());

const INT64_MAX = "9223372036854775807";
const SAFE_MAX = Number.MAX_SAFE_INTEGER; // 9007199254740991

describe("customer counts and limits larger than core can read back", () => {
  // Seed "Customer": "freeLicenses, browserSessionLicenses, deviceSessionLimit | long | ADMIN only;
  // deviceSessionLimit 0 = unlimited" and "resourceLimits | object | `{overrides: {<RESOURCE_KEY>:
  // integer}}`, ADMIN only". A count past 2^53 - 1 was a 500 on create and update (the row could
  // not be read back), and inside resourceLimits it was stored silently rounded (9007199254740993
  // became 9007199254740992; 2^63 - 1 came back as 9223372036854776000, no int64 at all).
  it("a value above 2^53 - 1 is a 400 customer.error.invalidValue naming the field, on create and update, and nothing is written", async () => {
    const { id } = await createCustomer(platform.http, admin, { name: "Review Numbers" });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ freeLicenses: INT64_MAX }, "freeLicenses"],
      [{ browserSessionLicenses: INT64_MAX }, "browserSessionLicenses"],
      [{ deviceSessionLimit: "1000000000000000000" }, "deviceSessionLimit"],
      [{ resourceLimits: { overrides: { DEVICE: String(SAFE_MAX + 2) } } }, "resourceLimits.overrides.DEVICE"],
      [{ resourceLimits: { overrides: { DEVICE: 1, USER: INT64_MAX } } }, "resourceLimits.overrides.USER"],
    ];
    for (const [fields, field] of cases) {
      const updated = await platform.http.put(`/api/customer/${id}`, { token: admin, body: { comment: "must not be written", ...fields } });
      expect([updated.status, updated.body], JSON.stringify(fields)).toEqual([400, errorBody(400, "customer.error.invalidValue")]);
      expect(updated.body.details).toEqual({ fields: field, max: SAFE_MAX });
      const created = await platform.http.post("/api/customer", { token: admin, body: { name: `Review Numbers ${field}`, ...fields } });
      expect([created.status, created.body], JSON.stringify(fields)).toEqual([400, errorBody(400, "customer.error.invalidValue")]);
    }
    const listed = await platform.http.get("/api/customer", { token: admin, query: { search: `id=${id}`, select: "comment,freeLicenses,resourceLimits" } });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.content).toEqual([{ id, freeLicenses: 0 }]);
    expect((await platform.http.get("/api/customer", { token: admin, query: { search: "name^Review Numbers ", size: 1, select: "id" } })).body.totalElements).toBe(0);

    // 2^53 - 1 itself is kept exactly, and read back as sent.
    const max = await platform.http.put(`/api/customer/${id}`, {
      token: admin,
      body: { freeLicenses: String(SAFE_MAX), deviceSessionLimit: String(SAFE_MAX), resourceLimits: { overrides: { DEVICE: String(SAFE_MAX) } } },
    });
    expect(max.status, max.text).toBe(200);
    expect(max.body).toMatchObject({ freeLicenses: SAFE_MAX, deviceSessionLimit: SAFE_MAX, resourceLimits: { overrides: { DEVICE: SAFE_MAX } } });
    const again = await platform.http.get("/api/customer", { token: admin, query: { search: `id=${id}`, select: "freeLicenses,resourceLimits" } });
    expect(again.body.content).toEqual([{ id, freeLicenses: SAFE_MAX, resourceLimits: { overrides: { DEVICE: SAFE_MAX } } }]);
  });
});

describe("ownerSubresellerId no customer can have", () => {
  // Seed "Customers": "Create | POST `/api/customer` | name (req), ..., ownerSubresellerId (ADMIN), ...";
  // "ownerSubresellerId (long)". An id outside what a customer id can be (2^63 - 1, -2^63) was a
  // 500 (the lookup of the owner failed in PostgreSQL); like any id that is no network owner, it
  // is a 400 customer.error.notSubreseller naming the id as sent, and no customer is created.
  it("is a 400 customer.error.notSubreseller on create, and nothing is written", async () => {
    for (const ownerSubresellerId of [INT64_MAX, "-9223372036854775808", "-1", "0"]) {
      const created = await platform.http.post("/api/customer", { token: admin, body: { name: `Review Owner ${ownerSubresellerId}`, ownerSubresellerId } });
      expect([created.status, created.body], ownerSubresellerId).toEqual([400, errorBody(400, "customer.error.notSubreseller")]);
      expect(String(created.body.details.ownerSubresellerId)).toBe(ownerSubresellerId);
    }
    expect((await platform.http.get("/api/customer", { token: admin, query: { search: "name^Review Owner ", size: 1, select: "id" } })).body.totalElements).toBe(0);
  });
});

describe("customer expirationDate outside the dates the platform stores", () => {
  // Seed "Customer": "createdDate, expirationDate | datetime | expiration triggers device lockout";
  // "Filter language": "dates are Unix milliseconds". An expirationDate before PostgreSQL's
  // earliest date (4713 BC), still inside JavaScript's date range, was a 500 on create and update.
  // The accepted range is the one `search` compares dates in (years 1 to 9999).
  it("is a 400 customer.error.invalidValue on create and update, nothing is written; the first and last supported dates are kept exactly", async () => {
    const { id } = await createCustomer(platform.http, admin, { name: "Review Dates" });
    for (const expirationDate of ["-8640000000000000", "-210000000000000", String(TIMESTAMP_MIN_MS - 1), String(TIMESTAMP_MAX_MS + 1), "8640000000000000"]) {
      const updated = await platform.http.put(`/api/customer/${id}`, { token: admin, body: { comment: "must not be written", expirationDate } });
      expect([updated.status, updated.body], expirationDate).toEqual([400, errorBody(400, "customer.error.invalidValue")]);
      expect(updated.body.details).toEqual({ field: "expirationDate", value: expirationDate });
      const created = await platform.http.post("/api/customer", { token: admin, body: { name: `Review Dates ${expirationDate}`, expirationDate } });
      expect([created.status, created.body], expirationDate).toEqual([400, errorBody(400, "customer.error.invalidValue")]);
    }
    expect(await platform.knexOf("core")("customer").where({ id }).first("comment", "expiration_date")).toEqual({ comment: null, expiration_date: null });
    expect((await platform.http.get("/api/customer", { token: admin, query: { search: "name^Review Dates ", size: 1, select: "id" } })).body.totalElements).toBe(0);

    for (const expirationDate of [TIMESTAMP_MIN_MS, TIMESTAMP_MAX_MS]) {
      const ok = await platform.http.put(`/api/customer/${id}`, { token: admin, body: { expirationDate } });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.expirationDate).toBe(expirationDate);
      const found = await platform.http.get("/api/customer", { token: admin, query: { search: `id=${id},expirationDate=${expirationDate}`, select: "expirationDate" } });
      expect(found.body.content).toEqual([{ id, expirationDate }]);
    }
  });
});

describe("'Password | at least 8 characters' counts characters, not UTF-16 code units", () => {
  // Seed "User": "password | string | write-only, at least 8 characters, optional for SSO-only";
  // Limits: "Password | at least 8 characters". Four emoji are four characters (eight UTF-16
  // units) and were accepted as a password on create, on an OWNER's reset and on a change of one's own.
  const fourEmoji = "😀😀😀😀";
  const eightEmoji = "😀😀😀😀😀😀😀😀";

  it("create, reset by an OWNER and POST /api/user/password refuse 4 emoji (400 user.error.passwordTooShort) and accept 8", async () => {
    const { id: customerId } = await createCustomer(platform.http, admin, { name: "Review Passwords" });
    const owner = await createUser(platform.http, admin, customerId, "OWNER");

    const short = await platform.http.post("/api/user/", { token: owner.token, query: { customerId }, body: { email: "emoji-short@review.test", role: "VIEWER", password: fourEmoji } });
    expect([short.status, short.body]).toEqual([400, errorBody(400, "user.error.passwordTooShort")]);
    expect(await platform.knexOf("core")("app_user").where({ email: "emoji-short@review.test" }).first()).toBeUndefined();

    const created = await platform.http.post("/api/user/", { token: owner.token, query: { customerId }, body: { email: "emoji-long@review.test", role: "VIEWER", password: eightEmoji } });
    expect(created.status, created.text).toBe(200);
    const token = await platform.http.login("emoji-long@review.test", eightEmoji);

    const reset = await platform.http.put("/api/user/", { token: owner.token, query: { email: "emoji-long@review.test" }, body: { password: fourEmoji } });
    expect([reset.status, reset.body]).toEqual([400, errorBody(400, "user.error.passwordTooShort")]);

    const change = await platform.http.post("/api/user/password", { token, query: { oldPassword: eightEmoji, newPassword: fourEmoji } });
    expect([change.status, change.body]).toEqual([400, errorBody(400, "user.error.passwordTooShort")]);
    // The password is still the one it was.
    await platform.http.login("emoji-long@review.test", eightEmoji);
  });
});
