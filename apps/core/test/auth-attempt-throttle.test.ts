// Brute-force throttling of password and TOTP guesses (oauth/attempt-throttle.ts). The documents
// leave rate limits out ("Rate limits and maximum page size: not shown."); the rules come from
// RFC 4226 7.3, which RFC 6238 applies to TOTP: "the authentication server needs to detect and
// stop brute force attacks ... The validation server manages individual counters per HOTP device
// in order to take note of any failed attempt", and NIST SP 800-63B 5.2.2: "the verifier SHALL
// limit consecutive failed authentication attempts on a single subscriber account to no more than
// 100". Here the limits are 3 (AUTH_MAX_PASSWORD_FAILURES, AUTH_MAX_TOTP_FAILURES); a locked
// account answers 429 `auth.error.tooManyAttempts` with Retry-After, before its secret is checked,
// and of a burst of parallel guesses no more than the limit are checked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentTotpCode } from "@signage/auth";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { coreKeepingKeys } from "./core-keeping-keys.js";
import { attemptPoliciesFromEnv, attemptSubjectKeyFrom, attemptThrottle, authAttempts, pruneAuthAttempts, totpSubject } from "../src/oauth/attempt-throttle.js";
import { errorBody } from "./error-body.js";

const LOCKED = "auth.error.tooManyAttempts";
const LIMIT = 3;

// Core as it runs, with its signing keys kept: password subjects are keyed with a key derived from them.
const core = coreKeepingKeys();

let platform: TestPlatform;
let admin: string;
let customerId: number;

beforeAll(async () => {
  platform = await startPlatform({
    modules: [core.module],
    prefix: "core_attempt_throttle_test",
    env: { AUTH_MAX_PASSWORD_FAILURES: String(LIMIT), AUTH_MAX_TOTP_FAILURES: String(LIMIT) },
  });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  customerId = (await createCustomer(platform.http, admin)).id;
});
afterAll(() => platform?.close());

const knex = () => platform.knexOf("core");
/** The auth_attempt subject of a username's password count, as core computes it. */
const passwordSubject = (username: string) => authAttempts(attemptPoliciesFromEnv({}), attemptSubjectKeyFrom(core.keys().privateKeyPem)).passwordSubject(knex(), username);
const newUser = () => createUser(platform.http, admin, customerId, "EDITOR");
const passwordGrant = (username: string, password: string, totp?: string) =>
  platform.http.post("/oauth/token", { body: new URLSearchParams({ grant_type: "password", username, password, ...(totp ? { totp } : {}) }) });

function expectLocked(res: { status: number; headers: Headers; body: any; text: string }, what: string) {
  expect(res.status, `${what}: ${res.text}`).toBe(429);
  expect(res.body, what).toMatchObject(errorBody(429, LOCKED));
  const seconds = res.body.details.retryAfterSeconds;
  expect(seconds, what).toBeGreaterThan(0);
  expect(seconds, what).toBeLessThanOrEqual(900);
  expect(res.headers.get("retry-after"), what).toBe(String(seconds));
}

function expectWrongPassword(res: { status: number; body: any; text: string }, what: string) {
  expect(res.status, `${what}: ${res.text}`).toBe(400);
  expect(res.body.error, what).toBe("invalid_grant");
}

/** Ends the subject's lock and window, as if AUTH_LOCKOUT_SECONDS had passed. */
async function timePasses(subject: string) {
  await knex()("auth_attempt").where({ subject }).update({ window_started_at: knex().raw("now() - interval '1 hour'"), locked_until: knex().raw("now() - interval '1 second'") });
}

describe("password guesses, counted per username", () => {
  it("the limit's wrong password locks the username: even the right one then answers 429 with Retry-After (OAuth error too_many_attempts); other users and the user's tokens are not affected", async () => {
    const user = await newUser();
    const other = await newUser();
    for (let i = 0; i < LIMIT; i++) expectWrongPassword(await passwordGrant(user.email, "wrong-password"), `wrong #${i + 1}`);
    const locked = await passwordGrant(user.email, user.password);
    expectLocked(locked, "right password while locked");
    expect(locked.body.error).toBe("too_many_attempts");
    expect(locked.body.error_description).toMatch(/Too many failed attempts/);
    expect((await passwordGrant(other.email, other.password)).status).toBe(200);
    // The lock holds new password logins off; the user's token keeps working.
    expect((await platform.http.get("/api/v2/user/me", { token: user.token })).status).toBe(200);

    await timePasses(await passwordSubject(user.email));
    expect((await passwordGrant(user.email, user.password)).status).toBe(200);
    // The success cleared the count.
    expect(await knex()("auth_attempt").where({ subject: await passwordSubject(user.email) }).first()).toBeUndefined();
  });

  it("a variant of the username that finds the same account (any case, also U+0130 'İ', which PostgreSQL lowers to 'i') counts with it", async () => {
    const user = await newUser();
    expect(user.email).toContain("i");
    const dotted = user.email.replace("i", "\u0130");
    // Under a database locale whose lower() keeps U+0130 that variant finds no account: nothing to share.
    const sameAccount = (await knex().raw("SELECT lower(?) = lower(?) AS same", [dotted, user.email])).rows[0].same as boolean;
    const variants = [user.email.toUpperCase(), ...(sameAccount ? [dotted] : []), user.email.toLowerCase()].slice(0, LIMIT);
    if (variants.length < LIMIT) variants.push(user.email);
    for (const [i, variant] of variants.entries()) expectWrongPassword(await passwordGrant(variant, "wrong-password"), `variant #${i + 1}`);
    if (sameAccount) expectLocked(await passwordGrant(dotted, user.password), "the right password under the U+0130 variant");
    expectLocked(await passwordGrant(user.email, user.password), "the right password");
  });

  it("an unknown username is counted and locked alike, so a lock does not tell whether the account exists; case does not open a new count", async () => {
    const unknown = `nobody-${Math.random().toString(36).slice(2)}@example.test`;
    for (let i = 0; i < LIMIT; i++) expectWrongPassword(await passwordGrant(i % 2 ? unknown.toUpperCase() : unknown, "wrong-password"), `unknown #${i + 1}`);
    expectLocked(await passwordGrant(unknown, "anything"), "unknown username after the limit");
  });

  it("failures count within AUTH_LOCKOUT_SECONDS of the window's first one: after it, counting starts over", async () => {
    const user = await newUser();
    for (let i = 0; i < LIMIT - 1; i++) expectWrongPassword(await passwordGrant(user.email, "wrong-password"), `wrong #${i + 1}`);
    await knex()("auth_attempt").where({ subject: await passwordSubject(user.email) }).update({ window_started_at: knex().raw("now() - interval '901 seconds'") });
    expectWrongPassword(await passwordGrant(user.email, "wrong-password"), "first wrong of a new window");
    expect((await passwordGrant(user.email, user.password)).status).toBe(200);
  });

  it("a successful login before the limit starts the count over", async () => {
    const user = await newUser();
    for (const round of [1, 2]) {
      for (let i = 0; i < LIMIT - 1; i++) expectWrongPassword(await passwordGrant(user.email, "wrong-password"), `round ${round}, wrong #${i + 1}`);
      expect((await passwordGrant(user.email, user.password)).status, `round ${round}: right password`).toBe(200);
    }
  });

  it("of a burst of parallel guesses only the limit's number are checked: each attempt is counted before its password is", async () => {
    const user = await newUser();
    const answers = await Promise.all(Array.from({ length: 12 }, () => passwordGrant(user.email, "wrong-password")));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(400), ...Array(12 - LIMIT).fill(429)]);
    for (const res of answers.filter((r) => r.status === 429)) expectLocked(res, "a guess past the limit");
    expectLocked(await passwordGrant(user.email, user.password), "after the burst");
  });

  it("an operator's password reset (PUT /api/user/ with password) is the way out of a lock; a changed own password clears the count", async () => {
    const user = await newUser();
    for (let i = 0; i < LIMIT; i++) expectWrongPassword(await passwordGrant(user.email, "wrong-password"), `wrong #${i + 1}`);
    expectLocked(await passwordGrant(user.email, user.password), "locked");
    const reset = await platform.http.put("/api/user/", { token: admin, query: { email: user.email }, body: { password: "reset-password-789" } });
    expect(reset.status, reset.text).toBe(200);
    const login = await passwordGrant(user.email, "reset-password-789");
    expect(login.status, login.text).toBe(200);

    const change = (oldPassword: string) => platform.http.post("/api/user/password", { token: login.body.access_token, query: { oldPassword, newPassword: "changed-password-1" } });
    for (let i = 0; i < LIMIT - 1; i++) expect((await change("wrong-password")).status).toBe(400);
    expect((await change("reset-password-789")).status).toBe(204);
    for (let i = 0; i < LIMIT - 1; i++) expectWrongPassword(await passwordGrant(user.email, "wrong-password"), `after the change, wrong #${i + 1}`);
    expect((await passwordGrant(user.email, "changed-password-1")).status).toBe(200);
  });

  it("POST /api/user/password's old password counts with the account's logins: a stolen token is no password oracle", async () => {
    const user = await newUser();
    for (let i = 0; i < LIMIT; i++) {
      const res = await platform.http.post("/api/user/password", { token: user.token, query: { oldPassword: "wrong-password", newPassword: "new-password-456" } });
      expect(res.status, res.text).toBe(400);
      expect(res.body.key).toBe("user.error.wrongPassword");
    }
    expectLocked(await platform.http.post("/api/user/password", { token: user.token, query: { oldPassword: user.password, newPassword: "new-password-456" } }), "right old password while locked");
    expectLocked(await passwordGrant(user.email, user.password), "login while locked");
  });
});

describe("TOTP guesses, counted per user", () => {
  async function withTwoFactor(user: TenantUser): Promise<string> {
    const start = await platform.http.post("/api/user/2fa", { token: user.token, query: { enable: true } });
    expect(start.status, start.text).toBe(200);
    const secret = start.body.secret as string;
    // The previous step's code confirms, leaving the current one unused.
    const confirm = await platform.http.post("/api/user/2fa", { token: user.token, query: { enable: true, totp: currentTotpCode(secret, Date.now() - 30_000) } });
    expect(confirm.status, confirm.text).toBe(200);
    return secret;
  }
  const wrongCode = (secret: string) => (currentTotpCode(secret) === "000000" ? "111111" : "000000");

  it("wrong x-totp codes on sensitive calls and wrong login codes share one count; at the limit the right code answers 429 too, and the password count is untouched", async () => {
    const user = await newUser();
    const secret = await withTwoFactor(user);
    const change = (code: string) => platform.http.post("/api/user/password", { token: user.token, query: { oldPassword: user.password, newPassword: "new-password-456" }, headers: { "x-totp": code } });
    for (let i = 0; i < LIMIT - 1; i++) {
      const res = await change(wrongCode(secret));
      expect(res.status, res.text).toBe(403);
      expect(res.body.key).toBe("auth.error.totpInvalid");
    }
    const login = await passwordGrant(user.email, user.password, wrongCode(secret));
    expect(login.status, login.text).toBe(403);
    expect(login.body.key).toBe("auth.error.totpInvalid");

    expectLocked(await change(currentTotpCode(secret)), "x-totp with the right code while locked");
    const lockedLogin = await passwordGrant(user.email, user.password, currentTotpCode(secret));
    expectLocked(lockedLogin, "login with the right code while locked");
    expect(lockedLogin.body.error).toBe("too_many_attempts");
    // The password was right every time: no password failures were counted.
    expect(await knex()("auth_attempt").where({ subject: await passwordSubject(user.email) }).first()).toBeUndefined();

    const userId = (await knex()("app_user").where({ email: user.email }).first()).id;
    await timePasses(totpSubject(userId));
    expect((await passwordGrant(user.email, user.password, currentTotpCode(secret))).status).toBe(200);

    // An operator resetting the user's 2FA clears its count and lock too.
    for (let i = 0; i < LIMIT; i++) expect((await change(wrongCode(secret))).status).toBe(403);
    expect(await knex()("auth_attempt").where({ subject: totpSubject(userId) }).first()).toMatchObject({ locked_until: expect.any(Date) });
    const reset = await platform.http.put("/api/user/", { token: admin, query: { email: user.email }, body: { use2FA: false } });
    expect(reset.status, reset.text).toBe(200);
    expect(await knex()("auth_attempt").where({ subject: totpSubject(userId) }).first()).toBeUndefined();
  });
});

describe("settings and housekeeping", () => {
  it("AUTH_MAX_PASSWORD_FAILURES, AUTH_MAX_TOTP_FAILURES and AUTH_LOCKOUT_SECONDS: defaults 10, 5 and 900; anything but a whole number in range stops start-up", () => {
    expect(attemptPoliciesFromEnv({})).toEqual({ password: { maxFailures: 10, lockoutSeconds: 900 }, totp: { maxFailures: 5, lockoutSeconds: 900 } });
    expect(attemptPoliciesFromEnv({ AUTH_MAX_PASSWORD_FAILURES: "0", AUTH_LOCKOUT_SECONDS: "60" }).password).toEqual({ maxFailures: 0, lockoutSeconds: 60 });
    for (const [name, value] of [["AUTH_MAX_PASSWORD_FAILURES", "101"], ["AUTH_MAX_TOTP_FAILURES", "1.5"], ["AUTH_LOCKOUT_SECONDS", "0"], ["AUTH_LOCKOUT_SECONDS", "1e3"]]) {
      expect(() => attemptPoliciesFromEnv({ [name]: value }), `${name}=${value}`).toThrow(name);
    }
  });

  it("the failure that reaches the limit, and only that one, reports the new lock (logged for operators); attempts past it are refused", async () => {
    const throttle = attemptThrottle({ maxFailures: 3, lockoutSeconds: 900 });
    const subject = totpSubject(`lock-report-${Math.random()}`);
    const reports = [];
    for (let i = 0; i < 3; i++) reports.push((await throttle.fail(knex(), await throttle.reserve(knex(), subject, LOCKED))).lockedNow);
    expect(reports).toEqual([false, false, true]);
    await expect(throttle.reserve(knex(), subject, LOCKED)).rejects.toThrow(/Too many failed attempts/);
  });

  it("a limit of 0 turns throttling off: nothing is counted", async () => {
    const off = attemptThrottle({ maxFailures: 0, lockoutSeconds: 900 });
    const subject = totpSubject(`off-${Math.random()}`);
    for (let i = 0; i < 5; i++) await off.fail(knex(), await off.reserve(knex(), subject, LOCKED));
    await expect(off.reserve(knex(), subject, LOCKED)).resolves.toEqual({ subject, number: 0 });
    expect(await knex()("auth_attempt").where({ subject }).first()).toBeUndefined();
  });

  it("the prune deletes rows whose window and lock have both passed, and keeps the others", async () => {
    const throttle = attemptThrottle({ maxFailures: 2, lockoutSeconds: 900 });
    const [stale, counting, locked] = ["stale", "counting", "locked"].map((n) => totpSubject(`${n}-${Math.random()}`));
    const failOnce = async (subject: string) => throttle.fail(knex(), await throttle.reserve(knex(), subject, LOCKED));
    await failOnce(stale);
    await timePasses(stale);
    await failOnce(counting);
    await failOnce(locked);
    await failOnce(locked);
    // A lock outlives its window start: still kept.
    await knex()("auth_attempt").where({ subject: locked }).update({ window_started_at: knex().raw("now() - interval '1 hour'") });
    expect(await pruneAuthAttempts(knex(), 900, 1)).toBeGreaterThanOrEqual(1);
    const left = (await knex()("auth_attempt").whereIn("subject", [stale, counting, locked]).pluck("subject")).sort();
    expect(left).toEqual([counting, locked].sort());
  });
});
