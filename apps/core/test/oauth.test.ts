// OAuth grants behind POST /oauth/token (foundation issue, item 6).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { currentTotpCode, readErrorDetail } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { AuthService } from "@signage/contracts/signage/core/v1/auth_pb";
import { CustomerService } from "@signage/contracts/signage/core/v1/customer_pb";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { ADMIN, startCore, type CoreHarness } from "./support.js";

let core: CoreHarness;
beforeAll(async () => {
  core = await startCore();
});
afterAll(() => core.close());

async function failure(p: Promise<unknown>) {
  const err = await p.then(() => undefined, (e) => ConnectError.from(e));
  if (!err) throw new Error("expected a failure");
  return { code: err.code, key: readErrorDetail(err)?.key };
}

describe("POST /oauth/token grants", () => {
  it("password grant returns a Bearer access token and a refresh token; the token works", async () => {
    const t = await core.auth.issueToken({ grantType: "password", username: ADMIN.email, password: ADMIN.password });
    expect(t.tokenType).toBe("Bearer");
    expect(t.expiresIn).toBe(900n);
    expect(t.refreshToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const me = await core.as(UserService, t.accessToken).getMe({});
    expect(me.user?.email).toBe(ADMIN.email);
  });

  it("wrong password and unknown user get the same invalid_grant", async () => {
    expect(await failure(core.auth.issueToken({ grantType: "password", username: ADMIN.email, password: "nope-nope" }))).toEqual({ code: Code.InvalidArgument, key: "oauth.error.invalid_grant" });
    expect(await failure(core.auth.issueToken({ grantType: "password", username: "ghost@example.com", password: "whatever1" }))).toEqual({ code: Code.InvalidArgument, key: "oauth.error.invalid_grant" });
  });

  it("refresh tokens rotate on use; reusing a rotated one revokes the whole login", async () => {
    const first = await core.auth.issueToken({ grantType: "password", username: ADMIN.email, password: ADMIN.password });
    const second = await core.auth.issueToken({ grantType: "refresh_token", refreshToken: first.refreshToken });
    expect(second.refreshToken).not.toBe(first.refreshToken);
    // The successor is used, so a reuse of the first is a replay even within the reuse grace
    // (a retry while the successor is still unused is refresh-reuse-grace.test.ts).
    const third = await core.auth.issueToken({ grantType: "refresh_token", refreshToken: second.refreshToken });
    expect((await failure(core.auth.issueToken({ grantType: "refresh_token", refreshToken: first.refreshToken }))).key).toBe("oauth.error.invalid_grant");
    // The family is revoked: even the newest token no longer works.
    expect((await failure(core.auth.issueToken({ grantType: "refresh_token", refreshToken: third.refreshToken }))).key).toBe("oauth.error.invalid_grant");
  });

  it("refresh tokens are stored hashed and revocable", async () => {
    const t = await core.auth.issueToken({ grantType: "password", username: ADMIN.email, password: ADMIN.password });
    const stored = await core.knex("refresh_token").select("token_hash");
    expect(stored.some((r: { token_hash: string }) => r.token_hash === t.refreshToken)).toBe(false);
    await core.auth.revokeToken({ token: t.refreshToken! });
    expect((await failure(core.auth.issueToken({ grantType: "refresh_token", refreshToken: t.refreshToken }))).key).toBe("oauth.error.invalid_grant");
  });

  it("client_credentials grant for an API client registered by ADMIN", async () => {
    const adminToken = await core.login(ADMIN.email, ADMIN.password);
    const platform = await core.knex("customer").where({ platform: true }).first();
    const client = await core.as(AuthService, adminToken).createApiClient({ customerId: BigInt(platform.id), name: "ci", role: "VIEWER" });
    const t = await core.auth.issueToken({ grantType: "client_credentials", clientId: client.clientId, clientSecret: client.clientSecret });
    expect(t.refreshToken).toBeUndefined();
    expect(t.accessToken.split(".")).toHaveLength(3);
    expect((await failure(core.auth.issueToken({ grantType: "client_credentials", clientId: client.clientId, clientSecret: "wrong" }))).code).toBe(Code.Unauthenticated);
  });

  it("unsupported grants are refused with a clear key; RFC 6749 5.2: a missing grant_type is invalid_request ('The request is missing a required parameter')", async () => {
    expect((await failure(core.auth.issueToken({ grantType: "implicit" }))).key).toBe("oauth.error.unsupported_grant_type");
    expect((await failure(core.auth.issueToken({ grantType: "" }))).key).toBe("oauth.error.invalid_request");
  });
});

describe("authentication audit", () => {
  let customerId: bigint;
  let adminUsers: ReturnType<typeof core.as<typeof UserService>>;
  beforeAll(async () => {
    const token = await core.login(ADMIN.email, ADMIN.password);
    adminUsers = core.as(UserService, token);
    customerId = (await core.as(CustomerService, token).createCustomer({ customer: { name: "OAuth audit" } })).customer!.id;
  });

  async function newUser(email: string, role = Role.OWNER) {
    await adminUsers.createUser({ customerId, user: { email, role, password: "audit-pass-1" } });
    return core.auth.issueToken({ grantType: "password", username: email, password: "audit-pass-1" });
  }

  /**
   * CPU time of this process per attempt (argon2 runs on this process's threads): unlike wall
   * time it does not grow when other processes load the machine, so the comparison holds on a
   * busy CI host.
   */
  async function meanCpuMs(n: number, attempt: () => Promise<unknown>) {
    const start = process.cpuUsage();
    for (let i = 0; i < n; i++) await attempt().catch(() => undefined);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000 / n;
  }

  // "One answer for unknown user and wrong password" must hold for the response time too, or
  // the timing enumerates accounts (RFC 6749 10.10 / OWASP: the same work for an unknown user).
  it("password grant: an unknown user or one without password login costs an argon2 verification like a wrong password", async () => {
    await newUser("timing@audit.test");
    await adminUsers.updateUser({ email: "timing@audit.test", user: { usernamePasswordLoginEnabled: false } });
    const grant = (username: string) => core.auth.issueToken({ grantType: "password", username, password: "wrong-pass-1" });
    await grant("warm-up@audit.test").catch(() => undefined);
    const wrong = await meanCpuMs(6, () => grant(ADMIN.email));
    const unknown = await meanCpuMs(6, () => grant("nobody@audit.test"));
    const disabled = await meanCpuMs(6, () => grant("timing@audit.test"));
    expect(unknown).toBeGreaterThan(wrong * 0.5);
    expect(disabled).toBeGreaterThan(wrong * 0.5);
    expect(await failure(grant("nobody@audit.test"))).toEqual({ code: Code.InvalidArgument, key: "oauth.error.invalid_grant" });
  });

  // OAuth 2.0 Security BCP 4.14.2: the server "detects a refresh token replay" when an already
  // used (rotated) token is presented. A refresh the server refused issued no successor, so the
  // token was never used: refusing it must not consume it, nor make a later retry a "replay".
  it("a refresh refused while the customer is restricted leaves the token usable once the restriction is lifted", async () => {
    const t = await newUser("restricted-refresh@audit.test");
    await core.knex("customer").where({ id: customerId.toString() }).update({ restricted: true });
    try {
      // "restricted: true disables all access"
      expect((await failure(core.auth.issueToken({ grantType: "refresh_token", refreshToken: t.refreshToken }))).key).toBe("oauth.error.access_denied");
    } finally {
      await core.knex("customer").where({ id: customerId.toString() }).update({ restricted: false });
    }
    const again = await core.auth.issueToken({ grantType: "refresh_token", refreshToken: t.refreshToken });
    expect(again.refreshToken).toBeTruthy();
  });

  // Seed: "ssoLoginEnabled, usernamePasswordLoginEnabled, magicCodeLoginEnabled,
  // oauthPasswordFlowEnabled | boolean | login methods allowed". Refresh tokens come only from
  // the password grant; RFC 6749 5.2 invalid_grant: "The provided ... refresh token is invalid,
  // expired, revoked ...". A disabled login method must not live on through refreshes.
  it("refresh is refused (invalid_grant) once the user's password flow or password login is disabled", async () => {
    const a = await newUser("flow-off@audit.test");
    await adminUsers.updateUser({ email: "flow-off@audit.test", user: { oauthPasswordFlowEnabled: false } });
    expect(await failure(core.auth.issueToken({ grantType: "refresh_token", refreshToken: a.refreshToken }))).toEqual({ code: Code.InvalidArgument, key: "oauth.error.invalid_grant" });
    const b = await newUser("login-off@audit.test");
    await adminUsers.updateUser({ email: "login-off@audit.test", user: { usernamePasswordLoginEnabled: false } });
    expect(await failure(core.auth.issueToken({ grantType: "refresh_token", refreshToken: b.refreshToken }))).toEqual({ code: Code.InvalidArgument, key: "oauth.error.invalid_grant" });
  });

  // RFC 7009 2.1: "the revocation of a particular token may cause the revocation of related
  // tokens and the underlying authorization grant". Revoking any token of a login (a client
  // logging out with a stale, already rotated copy) ends the login, not only that one token.
  it("/oauth/revoke of an already rotated refresh token revokes its whole family", async () => {
    const first = await core.auth.issueToken({ grantType: "password", username: ADMIN.email, password: ADMIN.password });
    const second = await core.auth.issueToken({ grantType: "refresh_token", refreshToken: first.refreshToken });
    await core.auth.revokeToken({ token: first.refreshToken! });
    expect((await failure(core.auth.issueToken({ grantType: "refresh_token", refreshToken: second.refreshToken }))).key).toBe("oauth.error.invalid_grant");
  });

  it("expired refresh tokens are refused (invalid_grant)", async () => {
    const t = await newUser("expired-refresh@audit.test", Role.VIEWER);
    await core.knex("refresh_token").whereNull("rotated_at").whereIn("user_id", core.knex("app_user").where({ email: "expired-refresh@audit.test" }).select("id")).update({ expires_at: new Date(Date.now() - 1000) });
    expect(await failure(core.auth.issueToken({ grantType: "refresh_token", refreshToken: t.refreshToken }))).toEqual({ code: Code.InvalidArgument, key: "oauth.error.invalid_grant" });
  });

  // RFC 6238 5.2: "The verifier MUST NOT accept the second attempt of the OTP after the
  // successful validation has been issued for the first OTP, which ensures one-time only use
  // of an OTP." Applies to the login's totp, to x-totp on sensitive operations and to the code
  // that confirms 2FA.
  it("TOTP codes are one-time: the same code is refused a second time at login and in x-totp", async () => {
    const t = await newUser("totp-once@audit.test");
    const me = core.as(UserService, t.accessToken);
    const secret = (await me.setTwoFactor({ enable: true })).secret!;
    const now = Date.now();
    const confirmCode = currentTotpCode(secret, now - 30_000);
    expect((await me.setTwoFactor({ enable: true, totp: confirmCode })).use2fa).toBe(true);
    const login = (totp: string) => core.auth.issueToken({ grantType: "password", username: "totp-once@audit.test", password: "audit-pass-1", totp });
    // The confirming code cannot log in afterwards.
    expect((await failure(login(confirmCode))).key).toBe("auth.error.totpInvalid");
    const loginCode = currentTotpCode(secret, now);
    const token = (await login(loginCode)).accessToken;
    expect((await failure(login(loginCode))).key).toBe("auth.error.totpInvalid");
    // x-totp: the login's code again is refused; a new one passes once.
    const user = (email: string) => ({ customerId, user: { email, role: Role.VIEWER, password: "audit-pass-1" } });
    expect((await failure(core.as(UserService, token, { "x-totp": loginCode }).createUser(user("by-replay@audit.test")))).key).toBe("auth.error.totpInvalid");
    const sensitiveCode = currentTotpCode(secret, now + 30_000);
    await core.as(UserService, token, { "x-totp": sensitiveCode }).createUser(user("by-code@audit.test"));
    expect((await failure(core.as(UserService, token, { "x-totp": sensitiveCode }).createUser(user("by-code-again@audit.test")))).key).toBe("auth.error.totpInvalid");
  });
});
