// OAuth grants behind POST /oauth/token (foundation issue, item 6).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { readErrorDetail } from "@signage/auth";
import { AuthService } from "@signage/contracts/signage/core/v1/auth_pb";
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
    expect((await failure(core.auth.issueToken({ grantType: "refresh_token", refreshToken: first.refreshToken }))).key).toBe("oauth.error.invalid_grant");
    // The family is revoked: even the newest token no longer works.
    expect((await failure(core.auth.issueToken({ grantType: "refresh_token", refreshToken: second.refreshToken }))).key).toBe("oauth.error.invalid_grant");
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

  it("unsupported grants are refused with a clear key", async () => {
    expect((await failure(core.auth.issueToken({ grantType: "implicit" }))).key).toBe("oauth.error.unsupported_grant_type");
  });
});
