// Brute-force throttling of password and TOTP guesses (oauth/attempt-throttle.ts). The documents
// leave rate limits out ("Rate limits and maximum page size: not shown."); the rules come from
// RFC 4226 7.3, which RFC 6238 applies to TOTP: "the authentication server needs to detect and
// stop brute force attacks ... The validation server manages individual counters per HOTP device
// in order to take note of any failed attempt", and NIST SP 800-63B 5.2.2: "the verifier SHALL
// limit consecutive failed authentication attempts on a single subscriber account to no more than
// 100". Here the limits are 3 (AUTH_MAX_PASSWORD_FAILURES per username and client address,
// AUTH_MAX_TOTP_FAILURES) and 5 (AUTH_MAX_ACCOUNT_PASSWORD_FAILURES, per username over all
// addresses); a locked account answers 429 `auth.error.tooManyAttempts` with Retry-After, before
// its secret is checked, and of a burst of parallel guesses no more than the limit are checked.
// The gateway trusts one proxy (GATEWAY_TRUSTED_PROXIES=1): X-Forwarded-For's last entry is the
// client's address; requests without it come from 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentTotpCode } from "@signage/auth";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { coreKeepingKeys } from "./core-keeping-keys.js";
import { attemptPoliciesFromEnv, attemptSubjectKeyFrom, attemptThrottle, authAttempts, pruneAuthAttempts, totpSubject } from "../src/oauth/attempt-throttle.js";
import { addressGroup } from "../src/oauth/client-address.js";
import { pruneKnownClients } from "../src/oauth/password-throttle.js";
import { errorBody } from "./error-body.js";

const LOCKED = "auth.error.tooManyAttempts";
const LIMIT = 3;
const ACCOUNT_LIMIT = 5;
const LOCAL = "127.0.0.1";

// Core as it runs, with its signing keys kept: password subjects are keyed with a key derived from them.
const core = coreKeepingKeys();

let platform: TestPlatform;
let admin: string;
let customerId: number;

beforeAll(async () => {
  platform = await startPlatform({
    modules: [core.module],
    prefix: "core_attempt_throttle_test",
    env: { AUTH_MAX_PASSWORD_FAILURES: String(LIMIT), AUTH_MAX_ACCOUNT_PASSWORD_FAILURES: String(ACCOUNT_LIMIT), AUTH_MAX_TOTP_FAILURES: String(LIMIT), GATEWAY_TRUSTED_PROXIES: "1" },
  });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  customerId = (await createCustomer(platform.http, admin)).id;
});
afterAll(() => platform?.close());

const knex = () => platform.knexOf("core");
/** The auth_attempt subjects of a username's password counts (all addresses, and from `address`), as core computes them. */
const passwordSubjects = (username: string, address = LOCAL) =>
  authAttempts(attemptPoliciesFromEnv({}), attemptSubjectKeyFrom(core.keys().privateKeyPem)).password.subjects(knex(), username, addressGroup(address));
/** The username's password count rows, from any address. */
const passwordRows = async (username: string) => {
  const { account } = await passwordSubjects(username);
  return knex()("auth_attempt").where({ subject: account }).orWhereRaw("left(subject, ?) = ?", [account.length + 1, `${account}@`]);
};
const newUser = () => createUser(platform.http, admin, customerId, "EDITOR");
/** A password login; `forwardedFor` is the X-Forwarded-For header the trusted proxy would send. */
const passwordGrant = (username: string, password: string, totp?: string, forwardedFor?: string) =>
  platform.http.post("/oauth/token", { body: new URLSearchParams({ grant_type: "password", username, password, ...(totp ? { totp } : {}) }), headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} });

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

    await timePasses((await passwordSubjects(user.email)).address);
    expect((await passwordGrant(user.email, user.password)).status).toBe(200);
    // The success cleared the counts.
    expect(await passwordRows(user.email)).toEqual([]);
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
    await knex()("auth_attempt").where({ subject: (await passwordSubjects(user.email)).address }).update({ window_started_at: knex().raw("now() - interval '901 seconds'") });
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

describe("password guesses from several client addresses", () => {
  it("the limit's guesses from one client address lock that address only: the account's owner still logs in from another, and the lock stays on the guessing address", async () => {
    const user = await newUser();
    const guesser = "203.0.113.7";
    for (let i = 0; i < LIMIT; i++) expectWrongPassword(await passwordGrant(user.email, "wrong-password", undefined, guesser), `guess #${i + 1}`);
    // Refused at its address, a guess is not counted for the account either: the guesser cannot lock the owner out this way.
    for (let i = 0; i < ACCOUNT_LIMIT; i++) expectLocked(await passwordGrant(user.email, user.password, undefined, guesser), `the guessing address, locked, #${i + 1}`);
    expect((await passwordGrant(user.email, user.password)).status, "the owner, from its own address").toBe(200);
    expectLocked(await passwordGrant(user.email, user.password, undefined, guesser), "the guessing address after the owner's login");
  });

  it("guesses spread over addresses lock the account for every address at AUTH_MAX_ACCOUNT_PASSWORD_FAILURES; guesses refused by that lock do not count for their address", async () => {
    const user = await newUser();
    for (let i = 0; i < LIMIT; i++) expectWrongPassword(await passwordGrant(user.email, "wrong-password", undefined, "198.51.100.1"), `first address, guess #${i + 1}`);
    for (let i = LIMIT; i < ACCOUNT_LIMIT; i++) expectWrongPassword(await passwordGrant(user.email, "wrong-password", undefined, "198.51.100.2"), `second address, guess #${i + 1}`);
    const third = "198.51.100.3";
    for (let i = 0; i < LIMIT; i++) expectLocked(await passwordGrant(user.email, user.password, undefined, third), `a third address while the account is locked, #${i + 1}`);

    await timePasses((await passwordSubjects(user.email)).account);
    // The third address's refused attempts were taken back: its own count starts from nothing.
    for (let i = 0; i < LIMIT - 1; i++) expectWrongPassword(await passwordGrant(user.email, "wrong-password", undefined, third), `third address after the lock, wrong #${i + 1}`);
    expect((await passwordGrant(user.email, user.password, undefined, third)).status).toBe(200);
  });

  it("an address the username logged in from within AUTH_KNOWN_CLIENT_DAYS is exempt from the account's lock (counted per address only); an older one is not; an operator's reset forgets them", async () => {
    // createUser logged the user in from this address.
    const user = await newUser();
    for (let i = 0; i < LIMIT; i++) expectWrongPassword(await passwordGrant(user.email, "wrong-password", undefined, "198.51.100.11"), `first address, guess #${i + 1}`);
    for (let i = LIMIT; i < ACCOUNT_LIMIT; i++) expectWrongPassword(await passwordGrant(user.email, "wrong-password", undefined, "198.51.100.12"), `second address, guess #${i + 1}`);
    expectLocked(await passwordGrant(user.email, user.password, undefined, "198.51.100.13"), "an address new to the account");
    expect((await passwordGrant(user.email, user.password)).status, "the owner's known address").toBe(200);

    for (let i = 0; i < LIMIT; i++) expectWrongPassword(await passwordGrant(user.email, "wrong-password"), `known address, wrong #${i + 1}`);
    expectLocked(await passwordGrant(user.email, user.password), "the known address after its own limit");
    await timePasses((await passwordSubjects(user.email)).address);
    expect((await passwordGrant(user.email, user.password)).status, "the known address after its own lock").toBe(200);

    await knex()("auth_known_client").where({ subject: (await passwordSubjects(user.email)).address }).update({ last_login_at: knex().raw("now() - interval '31 days'") });
    expectLocked(await passwordGrant(user.email, user.password), "an address last used longer ago than AUTH_KNOWN_CLIENT_DAYS");

    const reset = await platform.http.put("/api/user/", { token: admin, query: { email: user.email }, body: { password: "reset-password-789" } });
    expect(reset.status, reset.text).toBe(200);
    const { account } = await passwordSubjects(user.email);
    expect(await knex()("auth_known_client").where("subject", "like", `${account}@%`)).toEqual([]);
    expect(await passwordRows(user.email)).toEqual([]);
  });

  it("IPv6 addresses count by their /64: one client does not get a count per address of its block", async () => {
    const user = await newUser();
    for (let i = 0; i < LIMIT; i++) expectWrongPassword(await passwordGrant(user.email, "wrong-password", undefined, `2001:db8:1:2::${i + 10}`), `guess #${i + 1}`);
    expectLocked(await passwordGrant(user.email, user.password, undefined, "2001:db8:1:2:ffff::1"), "another address of the same /64");
    expect((await passwordGrant(user.email, user.password, undefined, "2001:db8:1:3::1")).status, "an address of another /64").toBe(200);
  });

  it("a client cannot choose its address: X-Forwarded-For entries left of the trusted proxy's, and an x-client-address header of its own, are ignored", async () => {
    const user = await newUser();
    const viaProxy = (i: number) => `192.0.2.${i}, 203.0.113.20`;
    for (let i = 0; i < LIMIT; i++) expectWrongPassword(await passwordGrant(user.email, "wrong-password", undefined, viaProxy(i)), `guess #${i + 1}`);
    expectLocked(await passwordGrant(user.email, user.password, undefined, viaProxy(99)), "a new left-hand entry");

    // (Another user: the account's own count would lock it first.)
    const other = await newUser();
    const spoofing = (i: number) =>
      platform.http.post("/oauth/token", { body: new URLSearchParams({ grant_type: "password", username: other.email, password: "wrong-password" }), headers: { "x-client-address": `192.0.2.${i}` } });
    for (let i = 0; i < LIMIT; i++) expectWrongPassword(await spoofing(i), `spoofed guess #${i + 1}`);
    expectLocked(await spoofing(99), "a new x-client-address");
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
    expect(await passwordRows(user.email)).toEqual([]);

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
  it("AUTH_MAX_PASSWORD_FAILURES, AUTH_MAX_ACCOUNT_PASSWORD_FAILURES, AUTH_KNOWN_CLIENT_DAYS, AUTH_MAX_TOTP_FAILURES and AUTH_LOCKOUT_SECONDS: defaults 10, 100, 30, 5 and 900; anything but a whole number in range stops start-up", () => {
    const policy = (maxFailures: number, lockoutSeconds = 900) => ({ maxFailures, lockoutSeconds });
    expect(attemptPoliciesFromEnv({})).toEqual({ password: { address: policy(10), account: policy(100), knownClientDays: 30 }, totp: policy(5) });
    expect(attemptPoliciesFromEnv({ AUTH_MAX_PASSWORD_FAILURES: "0", AUTH_MAX_ACCOUNT_PASSWORD_FAILURES: "1000", AUTH_KNOWN_CLIENT_DAYS: "0", AUTH_LOCKOUT_SECONDS: "60" }).password).toEqual({
      address: policy(0, 60),
      account: policy(1000, 60),
      knownClientDays: 0,
    });
    for (const [name, value] of [["AUTH_MAX_PASSWORD_FAILURES", "101"], ["AUTH_MAX_ACCOUNT_PASSWORD_FAILURES", "1001"], ["AUTH_KNOWN_CLIENT_DAYS", "366"], ["AUTH_MAX_TOTP_FAILURES", "1.5"], ["AUTH_LOCKOUT_SECONDS", "0"], ["AUTH_LOCKOUT_SECONDS", "1e3"]]) {
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

  it("the prune forgets known client addresses whose last login is older than AUTH_KNOWN_CLIENT_DAYS", async () => {
    const [old, recent] = ["old", "recent"].map((n) => `password:test-${n}-${Math.random()}@address`);
    await knex()("auth_known_client").insert([
      { subject: old, last_login_at: knex().raw("now() - interval '31 days'") },
      { subject: recent, last_login_at: knex().raw("now() - interval '29 days'") },
    ]);
    expect(await pruneKnownClients(knex(), 30)).toBeGreaterThanOrEqual(1);
    expect(await knex()("auth_known_client").whereIn("subject", [old, recent]).pluck("subject")).toEqual([recent]);
  });
});
