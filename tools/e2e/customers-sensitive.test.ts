// Sensitive operations (document 2 "Authentication"): "Sensitive operations (user
// create/update/delete, password change, customer delete, configuration changes) may require a
// CAPTCHA response in header g-recaptcha-response and/or a TOTP code in header x-totp,
// depending on server and user settings." "changing password, 2FA, readOnly, restricted,
// trustedAdmin or a role to OWNER/ADMIN is a sensitive change."
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentTotpCode, type CaptchaChecker } from "@signage/auth";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import type { ServiceModule } from "@signage/runtime";
import { startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { expectKey } from "./customers-support.js";

// Test double of the third-party CAPTCHA provider: "human" passes, anything else fails.
const captcha: CaptchaChecker = { verify: async (response) => response === "human" };
const withCaptcha = (m: ServiceModule): ServiceModule => ({ ...m, create: async (ctx) => ({ ...(await m.create(ctx)), captcha }) });
const HUMAN = { "g-recaptcha-response": "human" };

let platform: TestPlatform;
let admin: string;
beforeAll(async () => {
  platform = await startPlatform({ modules: [withCaptcha(coreModule), withCaptcha(mediaModule)], prefix: "customers_sensitive_e2e" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
}, 60_000);
afterAll(() => platform?.close());

async function customer(name: string, token = admin) {
  const res = await platform.http.post("/api/customer", { token, body: { name } });
  expect(res.status, res.text).toBe(200);
  return res.body.id as number;
}

async function user(customerId: number, role: string, email: string) {
  const res = await platform.http.post("/api/user/", { token: admin, headers: HUMAN, query: { customerId }, body: { email, role, password: "password-123" } });
  expect(res.status, res.text).toBe(200);
  return email;
}

/**
 * The user's current code, usable once more. Codes are one-time (RFC 6238 5.2; core keeps the last
 * step accepted), and these cases need several within one 30 s step, so that record is cleared first:
 * they are about which calls need x-totp, not about replay (apps/core/test/oauth.test.ts).
 */
async function totpOf(email: string, secret: string): Promise<string> {
  await platform.knexOf("core")("app_user").where({ email }).update({ totp_last_step: null });
  return currentTotpCode(secret);
}

/** Turns 2FA on for a user (two steps), then logs in with a code; returns the token, the secret and a fresh code maker. */
async function withTwoFactor(email: string) {
  const token = await platform.http.login(email, "password-123");
  const start = await platform.http.post("/api/user/2fa", { token, headers: HUMAN, query: { enable: true } });
  expect(start.status, start.text).toBe(200);
  const secret = start.body.secret as string;
  const confirm = await platform.http.post("/api/user/2fa", { token, headers: HUMAN, query: { enable: true, totp: await totpOf(email, secret) } });
  expect(confirm.body.use2FA).toBe(true);
  const login = await platform.http.post("/oauth/token", { body: new URLSearchParams({ grant_type: "password", username: email, password: "password-123", totp: await totpOf(email, secret) }) });
  expect(login.status, login.text).toBe(200);
  return { token: login.body.access_token as string, secret, code: () => totpOf(email, secret) };
}

describe("sensitive operations", () => {
  it("CAPTCHA (configured here with a verifier): customer delete needs a valid g-recaptcha-response; non-sensitive calls need none", async () => {
    const id = await customer("Sens Delete Me");
    expectKey(await platform.http.delete(`/api/customer/${id}`, { token: admin }), 403, "auth.error.captchaRequired");
    expectKey(await platform.http.delete(`/api/customer/${id}`, { token: admin, headers: { "g-recaptcha-response": "bot" } }), 403, "auth.error.captchaInvalid");
    expect((await platform.http.get("/api/customer", { token: admin })).status).toBe(200);
    expect((await platform.http.delete(`/api/customer/${id}`, { token: admin, headers: HUMAN })).status).toBe(204);
  });

  it("UpdateUser is sensitive per field: name or a role below OWNER need nothing; password, 2FA, readOnly, restricted, trustedAdmin, role OWNER/ADMIN need CAPTCHA and x-totp (caller with 2FA)", async () => {
    const id = await customer("Sens Users");
    const ownerEmail = await user(id, "OWNER", "owner@sens.test");
    const target = await user(id, "EDITOR", "editor@sens.test");
    const owner = await withTwoFactor(ownerEmail);
    const put = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      platform.http.put("/api/user/", { token: owner.token, query: { email: target }, body, headers });

    // Not sensitive: no header at all.
    expect((await put({ name: "Renamed" })).status).toBe(200);
    expect((await put({ role: "VIEWER" })).body.role).toBe("VIEWER");

    for (const body of [{ readOnly: true }, { restricted: true }, { password: "new-password-1" }, { use2FA: false }, { role: "OWNER" }]) {
      expectKey(await put(body), 403, "auth.error.captchaRequired");
      expectKey(await put(body, HUMAN), 403, "auth.error.totpRequired");
      expectKey(await put(body, { ...HUMAN, "x-totp": "000000" === currentTotpCode(owner.secret) ? "111111" : "000000" }), 403, "auth.error.totpInvalid");
      const ok = await put(body, { ...HUMAN, "x-totp": await owner.code() });
      expect(ok.status, `${JSON.stringify(body)}: ${ok.text}`).toBe(200);
    }
    // trustedAdmin is ADMIN only; the admin has no 2FA, so CAPTCHA alone lets it through.
    expectKey(await platform.http.put("/api/user/", { token: admin, query: { email: target }, body: { trustedAdmin: true } }), 403, "auth.error.captchaRequired");
    const trusted = await platform.http.put("/api/user/", { token: admin, query: { email: target }, body: { trustedAdmin: true }, headers: HUMAN });
    expect(trusted.body.trustedAdmin).toBe(true);
  });

  it("customer delete by a network owner with 2FA needs x-totp", async () => {
    const no = await platform.http.post("/api/customer", { token: admin, body: { name: "Sens Net", createAsSubreseller: true } });
    const ownerEmail = await user(no.body.id, "OWNER", "owner@sensnet.test");
    const owner = await withTwoFactor(ownerEmail);
    const member = await platform.http.post("/api/customer", { token: owner.token, body: { name: "Sens Net Member", licenseTier: "STARTER" } });
    expect(member.status, member.text).toBe(200);
    expectKey(await platform.http.delete(`/api/customer/${member.body.id}`, { token: owner.token, headers: HUMAN }), 403, "auth.error.totpRequired");
    const ok = await platform.http.delete(`/api/customer/${member.body.id}`, { token: owner.token, headers: { ...HUMAN, "x-totp": await owner.code() } });
    expect(ok.status, ok.text).toBe(204);
  });
});
