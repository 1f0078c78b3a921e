// Mandatory 2FA, enforced by every service. Document 2, Customer: "force2FA | boolean |
// mandatory 2FA for all users"; User: "use2FA, forceToSet2FA | boolean". A user whose
// forceToSet2FA is true (its own flag, or its customer's force2FA while it has no 2FA) may only
// read itself, set up and confirm 2FA, change its own password, refresh or revoke tokens, or
// leave instead (DELETE /api/user/myAccount); everything else answers 403
// `user.error.twoFactorSetupRequired`, in core (which reads the user on every call, so a change
// counts at once) and in media (which goes by the token's claim until the token is refreshed).
// API clients and device users are not held back. While its customer forces 2FA a user cannot
// turn its own 2FA off (409 `user.error.twoFactorMandatory`); set up (or confirmed on again), a
// forceToSet2FA flag of its own is cleared.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT } from "jose";
import { createClient } from "@connectrpc/connect";
import { currentTotpCode } from "@signage/auth";
import { AuthService } from "@signage/contracts/signage/core/v1/auth_pb";
import { mediaModule } from "@signage/media";
import { createInMemoryTransport } from "@signage/platform";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { coreKeepingKeys } from "./core-keeping-keys.js";
import { errorBody } from "./error-body.js";

const SETUP_REQUIRED = "user.error.twoFactorSetupRequired";

// Core as it runs, with the platform's signing keys kept for minting a token of the old shape.
const core = coreKeepingKeys();

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startPlatform({ modules: [core.module, mediaModule], prefix: "core_mandatory_2fa_test" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(() => platform?.close());

interface Tokens {
  access: string;
  refresh: string;
}

async function grant(form: Record<string, string>): Promise<Tokens> {
  const res = await platform.http.post("/oauth/token", { body: new URLSearchParams(form) });
  expect(res.status, res.text).toBe(200);
  return { access: res.body.access_token, refresh: res.body.refresh_token };
}
const passwordGrant = (user: Pick<TenantUser, "email" | "password">, totp?: string) =>
  grant({ grant_type: "password", username: user.email, password: user.password, ...(totp ? { totp } : {}) });
const refreshGrant = (tokens: Tokens) => grant({ grant_type: "refresh_token", refresh_token: tokens.refresh });

async function setForce2fa(customerId: number, force2FA: boolean) {
  const res = await platform.http.put(`/api/customer/${customerId}`, { token: admin, body: { force2FA } });
  expect(res.status, res.text).toBe(200);
}

async function forcedCustomer(): Promise<number> {
  const id = (await createCustomer(platform.http, admin)).id;
  await setForce2fa(id, true);
  return id;
}

// One read in core, one in core's customers, one in media.
const listUsers = (token: string) => platform.http.get("/api/v2/user", { token });
const listCustomers = (token: string) => platform.http.get("/api/customer", { token });
const listFiles = (token: string) => platform.http.get("/api/v2/file", { token });

function expectSetupRequired(res: { status: number; body: any; text: string }, what: string) {
  expect(res.status, `${what}: ${res.text}`).toBe(403);
  expect(res.body, what).toEqual(errorBody(403, SETUP_REQUIRED));
  expect(res.body.message, what).toMatch(/2FA must be set up first/);
}
function expectOk(res: { status: number; text: string }, what: string) {
  expect(res.status, `${what}: ${res.text}`).toBe(200);
}

/** Starts and confirms 2FA with the user's token; returns the secret. The confirming code is the previous step's, so the current one is left for a login. */
async function setUp2fa(token: string): Promise<string> {
  const start = await platform.http.post("/api/user/2fa", { token, query: { enable: true } });
  expect(start.status, start.text).toBe(200);
  const secret = start.body.secret as string;
  const confirm = await platform.http.post("/api/user/2fa", { token, query: { enable: true, totp: currentTotpCode(secret, Date.now() - 30_000) } });
  expect(confirm.status, confirm.text).toBe(200);
  expect(confirm.body.use2FA).toBe(true);
  return secret;
}

/**
 * 2FA set up with the user's token, and a source of one-time codes for its sensitive calls: each
 * code is for a later time step than the one before (codes are one-time, RFC 6238 5.2; the next
 * step's code is accepted a step early).
 */
async function withTwoFactor(token: string): Promise<{ secret: string; nextCode: () => string }> {
  const secret = await setUp2fa(token);
  let lastStep = Math.floor((Date.now() - 30_000) / 30_000);
  return {
    secret,
    nextCode: () => {
      lastStep = Math.max(Math.floor(Date.now() / 30_000), lastStep + 1);
      return currentTotpCode(secret, lastStep * 30_000);
    },
  };
}

const MANDATORY = "user.error.twoFactorMandatory";

describe("customer 'force2FA | boolean | mandatory 2FA for all users'", () => {
  it("its user without 2FA gets 403 user.error.twoFactorSetupRequired in core and in media, may still read itself and set 2FA up; then core lets it through at once, media with a refreshed token", async () => {
    const customerId = await forcedCustomer();
    const viewer = await createUser(platform.http, admin, customerId, "VIEWER");
    const tokens = await passwordGrant(viewer);

    expectSetupRequired(await listUsers(tokens.access), "GET /api/v2/user");
    expectSetupRequired(await listCustomers(tokens.access), "GET /api/customer");
    expectSetupRequired(await listFiles(tokens.access), "GET /api/v2/file (media)");
    expectSetupRequired(await platform.http.put("/api/user/", { token: tokens.access, query: { email: viewer.email }, body: { name: "me" } }), "PUT /api/user/ (own profile)");

    const me = await platform.http.get("/api/v2/user/me", { token: tokens.access });
    expectOk(me, "GET /api/v2/user/me");
    expect(me.body).toMatchObject({ email: viewer.email, use2FA: false, forceToSet2FA: true, customer: { id: customerId, force2FA: true } });

    await setUp2fa(tokens.access);
    // Core reads the user on every call: the same token passes at once.
    expectOk(await listUsers(tokens.access), "GET /api/v2/user after set-up");
    expectOk(await listCustomers(tokens.access), "GET /api/customer after set-up");
    expect((await platform.http.get("/api/v2/user/me", { token: tokens.access })).body).toMatchObject({ use2FA: true, forceToSet2FA: false });
    // Media goes by the token's claim: until it is refreshed.
    expectSetupRequired(await listFiles(tokens.access), "GET /api/v2/file with the token from before the set-up");
    const refreshed = await refreshGrant(tokens);
    expectOk(await listFiles(refreshed.access), "GET /api/v2/file with a refreshed token");
    expectOk(await listUsers(refreshed.access), "GET /api/v2/user with a refreshed token");

    // Revoking stays open too (the gateway's own /oauth/revoke).
    expect((await platform.http.post("/oauth/revoke", { body: new URLSearchParams({ token: refreshed.refresh }) })).status).toBe(200);
  });

  it("turned on, it holds back a user's old token in core at once and in media from the next refresh; turned off, likewise the other way", async () => {
    const customerId = (await createCustomer(platform.http, admin)).id;
    const owner = await createUser(platform.http, admin, customerId, "OWNER");
    let tokens = await passwordGrant(owner);
    expectOk(await listUsers(tokens.access), "before force2FA");

    await setForce2fa(customerId, true);
    expectSetupRequired(await listUsers(tokens.access), "core, at once");
    expectOk(await listFiles(tokens.access), "media, token from before force2FA");
    tokens = await refreshGrant(tokens);
    expectSetupRequired(await listFiles(tokens.access), "media, refreshed token");
    expectSetupRequired(await listUsers(tokens.access), "core, refreshed token");

    await setForce2fa(customerId, false);
    expectOk(await listUsers(tokens.access), "core, at once after force2FA off");
    expectSetupRequired(await listFiles(tokens.access), "media, token from while force2FA was on");
    tokens = await refreshGrant(tokens);
    expectOk(await listFiles(tokens.access), "media, refreshed after force2FA off");
  });

  it("its user may leave instead of setting 2FA up (DELETE /api/user/myAccount)", async () => {
    const customerId = await forcedCustomer();
    const viewer = await createUser(platform.http, admin, customerId, "VIEWER");
    const token = (await passwordGrant(viewer)).access;
    expectSetupRequired(await listUsers(token), "GET /api/v2/user");
    const left = await platform.http.delete("/api/user/myAccount", { token });
    expect(left.status, left.text).toBe(204);
    expect((await platform.http.post("/oauth/token", { body: new URLSearchParams({ grant_type: "password", username: viewer.email, password: viewer.password }) })).status).toBe(400);
  });

  it("device users of such a customer are not held back", async () => {
    const customerId = await forcedCustomer();
    const device = await createUser(platform.http, admin, customerId, "DEVICE_USER");
    const token = (await passwordGrant(device)).access;
    expect((await platform.http.get("/api/v2/user/me", { token })).body.forceToSet2FA).toBe(true);
    expectOk(await platform.http.put("/api/user/", { token, query: { email: device.email }, body: { name: "player 1" } }), "device user's own profile update");
  });

  it("API clients (client_credentials) of such a customer are not held back", async () => {
    const customerId = await forcedCustomer();
    const running = platform.running.find((m) => m.name === "core")!;
    const auth = createClient(AuthService, createInMemoryTransport(running.service.routes, { interceptors: running.service.interceptors }));
    const client = await auth.createApiClient({ customerId: BigInt(customerId), name: "bot", role: "OWNER" }, { headers: { authorization: `Bearer ${admin}` } });
    const res = await platform.http.post("/oauth/token", { body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.clientId, client_secret: client.clientSecret }) });
    expect(res.status, res.text).toBe(200);
    const token = res.body.access_token as string;
    expectOk(await listUsers(token), "GET /api/v2/user as an API client");
    expectOk(await listCustomers(token), "GET /api/customer as an API client");
    expectOk(await listFiles(token), "GET /api/v2/file as an API client");
  });

  // "force2FA | boolean | mandatory 2FA for all users"; "Password, 2FA | ... POST `/api/user/2fa?totp=<code>&enable=<bool>`".
  it("its user cannot turn its own 2FA off (409 user.error.twoFactorMandatory) and stays let through; once force2FA is off it can", async () => {
    const customerId = await forcedCustomer();
    const viewer = await createUser(platform.http, admin, customerId, "VIEWER");
    const token = (await passwordGrant(viewer)).access;
    const { nextCode } = await withTwoFactor(token);

    const off = await platform.http.post("/api/user/2fa", { token, query: { enable: false }, headers: { "x-totp": nextCode() } });
    expect(off.status, off.text).toBe(409);
    expect(off.body).toEqual(errorBody(409, MANDATORY));
    expect(off.body.message).toMatch(/requires two-factor authentication for all users/);
    expect(off.body.details).toEqual({ email: viewer.email, customerId });
    expect((await platform.http.get("/api/v2/user/me", { token })).body).toMatchObject({ use2FA: true, forceToSet2FA: false });
    expectOk(await listUsers(token), "still let through: 2FA stayed on");

    await setForce2fa(customerId, false);
    const allowed = await platform.http.post("/api/user/2fa", { token, query: { enable: false }, headers: { "x-totp": nextCode() } });
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body.use2FA).toBe(false);
  });

  it("an OWNER cannot turn its own 2FA off through PUT /api/user/ either; an OWNER or ADMIN still resets another user's 2FA (who is then held back to set it up again)", async () => {
    const customerId = await forcedCustomer();
    const owner = await createUser(platform.http, admin, customerId, "OWNER");
    const viewer = await createUser(platform.http, admin, customerId, "VIEWER");
    const ownerToken = (await passwordGrant(owner)).access;
    const viewerToken = (await passwordGrant(viewer)).access;
    const ownerCodes = await withTwoFactor(ownerToken);
    await withTwoFactor(viewerToken);
    expectOk(await listUsers(viewerToken), "viewer with 2FA on");

    const own = await platform.http.put("/api/user/", { token: ownerToken, query: { email: owner.email }, body: { use2FA: false }, headers: { "x-totp": ownerCodes.nextCode() } });
    expect(own.status, own.text).toBe(409);
    expect(own.body).toEqual(errorBody(409, MANDATORY));
    expect((await platform.http.get("/api/v2/user/me", { token: ownerToken })).body.use2FA).toBe(true);

    const reset = await platform.http.put("/api/user/", { token: ownerToken, query: { email: viewer.email }, body: { use2FA: false }, headers: { "x-totp": ownerCodes.nextCode() } });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toMatchObject({ use2FA: false, forceToSet2FA: true });
    expectSetupRequired(await listUsers(viewerToken), "viewer after the OWNER's reset");
  });
});

describe("a user's own forceToSet2FA flag ('use2FA, forceToSet2FA | boolean')", () => {
  it("holds the user back likewise; its own password change stays open; after set-up core lets it through at once, media after a new login", async () => {
    const customerId = (await createCustomer(platform.http, admin)).id;
    const user = await createUser(platform.http, admin, customerId, "EDITOR", { forceToSet2FA: true });
    const token = (await passwordGrant(user)).access;

    expectSetupRequired(await listUsers(token), "GET /api/v2/user");
    expectSetupRequired(await listFiles(token), "GET /api/v2/file (media)");
    expect((await platform.http.get("/api/v2/user/me", { token })).body).toMatchObject({ use2FA: false, forceToSet2FA: true, customer: { force2FA: false } });
    const password = "new-password-456";
    const changed = await platform.http.post("/api/user/password", { token, query: { oldPassword: user.password, newPassword: password } });
    expect(changed.status, changed.text).toBe(204);

    const secret = await setUp2fa(token);
    expectOk(await listUsers(token), "core, at once after set-up");
    expectSetupRequired(await listFiles(token), "media, token from before the set-up");
    const fresh = await passwordGrant({ email: user.email, password }, currentTotpCode(secret));
    expectOk(await listFiles(fresh.access), "media, after a login with 2FA");
  });

  it("an OWNER or ADMIN clearing the flag lets the user through in core at once, in media from the next refresh", async () => {
    const customerId = (await createCustomer(platform.http, admin)).id;
    const user = await createUser(platform.http, admin, customerId, "VIEWER", { forceToSet2FA: true });
    const tokens = await passwordGrant(user);
    expectSetupRequired(await listUsers(tokens.access), "before the flag is cleared");
    const cleared = await platform.http.put("/api/user/", { token: admin, query: { email: user.email }, body: { forceToSet2FA: false } });
    expect(cleared.status, cleared.text).toBe(200);
    expectOk(await listUsers(tokens.access), "core, at once");
    expectSetupRequired(await listFiles(tokens.access), "media, token from before");
    expectOk(await listFiles((await refreshGrant(tokens)).access), "media, refreshed token");
  });
  it("does not hold back a user who has 2FA on already, though an ADMIN sets the flag afterwards", async () => {
    const customerId = (await createCustomer(platform.http, admin)).id;
    const user = await createUser(platform.http, admin, customerId, "VIEWER");
    const secret = await setUp2fa((await passwordGrant(user)).access);
    const flagged = await platform.http.put("/api/user/", { token: admin, query: { email: user.email }, body: { forceToSet2FA: true } });
    expect(flagged.status, flagged.text).toBe(200);
    const tokens = await passwordGrant(user, currentTotpCode(secret));
    expectOk(await listUsers(tokens.access), "core");
    expectOk(await listFiles(tokens.access), "media");
  });

  // "use2FA, forceToSet2FA | boolean": the user fulfils the duty by having 2FA on, so confirming it on clears the flag.
  it("is cleared when the user, 2FA on already, enables it again; so turning 2FA off later does not hold it back", async () => {
    const customerId = (await createCustomer(platform.http, admin)).id;
    const user = await createUser(platform.http, admin, customerId, "VIEWER");
    const token = (await passwordGrant(user)).access;
    const { nextCode } = await withTwoFactor(token);
    const flagged = await platform.http.put("/api/user/", { token: admin, query: { email: user.email }, body: { forceToSet2FA: true } });
    expect(flagged.status, flagged.text).toBe(200);
    expect((await platform.http.get("/api/v2/user/me", { token })).body).toMatchObject({ use2FA: true, forceToSet2FA: true });

    const again = await platform.http.post("/api/user/2fa", { token, query: { enable: true }, headers: { "x-totp": nextCode() } });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual({ use2FA: true });
    expect((await platform.http.get("/api/v2/user/me", { token })).body).toMatchObject({ use2FA: true, forceToSet2FA: false });

    const off = await platform.http.post("/api/user/2fa", { token, query: { enable: false }, headers: { "x-totp": nextCode() } });
    expect(off.status, off.text).toBe(200);
    expectOk(await listUsers(token), "2FA off, the duty fulfilled before");
  });
});

describe("tokens issued before the claim existed (rolling deploy)", () => {
  /** An access token of the previous shape: the same claims without `f2fa`, signed with the platform's key. */
  async function oldToken(user: TenantUser, customerId: number, role: string): Promise<string> {
    const me = await platform.http.get("/api/v2/user/me", { token: user.token });
    expect(me.status, me.text).toBe(200);
    return new SignJWT({ uid: me.body.id, cid: customerId, role, no: false, tfa: false, kind: "user" })
      .setProtectedHeader({ alg: core.keys().alg, typ: "at+jwt" })
      .setSubject(user.email)
      .setIssuer("signage")
      .setIssuedAt()
      .setExpirationTime("15m")
      .setJti(`old-${Math.random().toString(36).slice(2)}`)
      .sign(core.keys().privateKey);
  }

  it("still verify everywhere and count as not forced; core still holds back a forced user by its current row", async () => {
    const customerId = (await createCustomer(platform.http, admin)).id;
    const viewer = await createUser(platform.http, admin, customerId, "VIEWER");
    const token = await oldToken(viewer, customerId, "VIEWER");
    expectOk(await listUsers(token), "core, old token");
    expectOk(await listFiles(token), "media, old token");
    expectOk(await platform.http.get("/api/v2/user/me", { token }), "user/me, old token");

    await setForce2fa(customerId, true);
    expectSetupRequired(await listUsers(token), "core, old token of a now forced user");
    // Media cannot know before the token is refreshed: a missing claim is false.
    expectOk(await listFiles(token), "media, old token of a now forced user");
  });
});
