// Refresh token reuse grace: a lost refresh response must not log the client out.
//
// Rotation, RFC 6749 6: "The authorization server MAY issue a new refresh token, in which case the
// client MUST discard the old refresh token and replace it with the new refresh token. The
// authorization server MAY revoke the old refresh token after issuing a new refresh token to the
// client." Replay detection, RFC 6749 10.4: "the authorization server could employ refresh token
// rotation in which a new refresh token is issued with every access token refresh response. The
// previous refresh token is invalidated but retained by the authorization server. If a refresh
// token is compromised and subsequently used by both the attacker and the legitimate client, one
// of them will present an invalidated refresh token, which will inform the authorization server
// of the breach." OAuth 2.0 Security BCP (RFC 9700) 4.14.2 goes on: "The authorization server
// cannot determine which party submitted the invalid refresh token, but it will revoke the active
// refresh token. This stops the attack at the cost of forcing the legitimate client to obtain a
// fresh authorization grant."
//
// That cost also falls on a client whose refresh response was lost (network drop, proxy timeout,
// the process killed after sending): it never saw the successor and retries with the token it
// has. FAPI 2.0 Security Profile (authorization server): "shall not use refresh token rotation
// unless, in the case a response with a new refresh token is not received and stored by the
// client, retrying the request (with the previous refresh token) will succeed". So, as the big
// identity providers' "refresh token reuse interval": within REFRESH_REUSE_GRACE_SECONDS (default
// 30) of a token's first use, and while its successor was never used, presenting it again gets
// that same successor (derived from the token, refresh-tokens.ts successorOf) with a new access
// token. Two holders of one token then hold one chain, and whichever presents its next token
// second is a replay that revokes the login (the BCP's breach signal is kept). Once the
// successor was used, after the window, or with the grace at 0, a retry stays a replay.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { coreModule } from "../src/module.js";
import { hashToken, refreshReuseGraceSecondsFromEnv } from "../src/oauth/refresh-tokens.js";

interface Tokens {
  access: string;
  refresh: string;
}

// Default grace (30 s): no REFRESH_REUSE_GRACE_SECONDS in the environment.
let platform: TestPlatform;
// REFRESH_REUSE_GRACE_SECONDS=0: the grace off, rotation as before.
let graceOff: TestPlatform;
// REFRESH_REUSE_GRACE_SECONDS=1: the window passes in real time.
let graceOneSecond: TestPlatform;

beforeAll(async () => {
  [platform, graceOff, graceOneSecond] = await Promise.all([
    startPlatform({ modules: [coreModule], prefix: "core_refresh_grace_test" }),
    startPlatform({ modules: [coreModule], prefix: "core_refresh_grace_off_test", env: { REFRESH_REUSE_GRACE_SECONDS: "0" } }),
    startPlatform({ modules: [coreModule], prefix: "core_refresh_grace_1s_test", env: { REFRESH_REUSE_GRACE_SECONDS: "1" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([platform?.close(), graceOff?.close(), graceOneSecond?.close()]);
});

function oauth(p: TestPlatform) {
  const token = (form: Record<string, string>) => p.http.post("/oauth/token", { body: new URLSearchParams(form) });
  return {
    async login(email = TEST_ADMIN.email, password = TEST_ADMIN.password): Promise<Tokens> {
      const res = await token({ grant_type: "password", username: email, password });
      expect(res.status, res.text).toBe(200);
      return { access: res.body.access_token, refresh: res.body.refresh_token };
    },
    /** The raw answer of a refresh with this refresh token. */
    refresh: (refreshToken: string) => token({ grant_type: "refresh_token", refresh_token: refreshToken }),
    /** A refresh that must succeed: the new pair. */
    async refreshed(refreshToken: string): Promise<Tokens> {
      const res = await token({ grant_type: "refresh_token", refresh_token: refreshToken });
      expect(res.status, res.text).toBe(200);
      expect(res.body.token_type).toBe("Bearer");
      return { access: res.body.access_token, refresh: res.body.refresh_token };
    },
    /** The access token works at the edge. */
    async expectAccess(access: string) {
      const me = await p.http.get("/api/v2/user/me", { token: access });
      expect(me.status, me.text).toBe(200);
    },
    /** The login's stored tokens: how many are live (neither used nor revoked), and all of them. */
    async family(refreshToken: string) {
      const knex = p.knexOf("core");
      const { family_id } = await knex("refresh_token").where({ token_hash: hashToken(refreshToken) }).first("family_id");
      const rows: Array<{ rotated_at: Date | null; revoked_at: Date | null }> = await knex("refresh_token").where({ family_id });
      return { familyId: family_id as string, rows, live: rows.filter((r) => !r.rotated_at && !r.revoked_at).length };
    },
    /** Moves the token's first use this far into the past (the window is measured from it). */
    async usedSecondsAgo(refreshToken: string, seconds: number) {
      await p.knexOf("core")("refresh_token").where({ token_hash: hashToken(refreshToken) }).update({ rotated_at: new Date(Date.now() - seconds * 1000) });
    },
  };
}

const expectInvalidGrant = (res: { status: number; body: any; text: string }) => {
  expect(res.status, res.text).toBe(400);
  expect(res.body).toMatchObject({ error: "invalid_grant", key: "oauth.error.invalid_grant" });
};

describe("refresh token reuse grace (REFRESH_REUSE_GRACE_SECONDS, default 30)", { timeout: 30_000 }, () => {
  it("a retry within the window, its successor unused, gets that same successor and a new access token; the login goes on with it", async () => {
    const o = oauth(platform);
    const first = await o.login();
    const lost = await o.refreshed(first.refresh); // the response that never reached the client
    const retried = await o.refreshed(first.refresh);
    expect(retried.refresh).toBe(lost.refresh);
    expect(retried.access).not.toBe(lost.access);
    await o.expectAccess(retried.access);
    // Nothing was written for the retry: the login still has exactly one live token.
    const before = await o.family(first.refresh);
    expect([before.rows.length, before.live]).toEqual([2, 1]);
    const next = await o.refreshed(retried.refresh);
    await o.expectAccess(next.access);
    const after = await o.refreshed(next.refresh);
    await o.expectAccess(after.access);
    const family = await o.family(after.refresh);
    expect(family.familyId).toBe(before.familyId);
    expect(family.live).toBe(1);
  });

  it("a client retrying twice gets the same successor each time", async () => {
    const o = oauth(platform);
    const first = await o.login();
    const answers = [await o.refreshed(first.refresh), await o.refreshed(first.refresh), await o.refreshed(first.refresh)];
    expect(new Set(answers.map((a) => a.refresh)).size).toBe(1);
    for (const a of answers) await o.expectAccess(a.access);
    expect((await o.family(first.refresh)).live).toBe(1);
  });

  it("a thief retrying a stolen token within the window shares the client's chain: the second use of the next token is a replay that ends the login", async () => {
    const o = oauth(platform);
    const first = await o.login();
    const client = await o.refreshed(first.refresh);
    const thief = await o.refreshed(first.refresh); // within the window, the successor unused
    expect(thief.refresh).toBe(client.refresh);
    const thiefNext = await o.refreshed(thief.refresh);
    await o.usedSecondsAgo(thief.refresh, 31); // the client comes back later, with the token it holds
    expectInvalidGrant(await o.refresh(client.refresh));
    expect((await o.family(first.refresh)).live).toBe(0);
    expectInvalidGrant(await o.refresh(thiefNext.refresh));
  });

  it("a retry after the successor was used is a replay: the whole login is revoked (unchanged)", async () => {
    const o = oauth(platform);
    const first = await o.login();
    const second = await o.refreshed(first.refresh);
    const third = await o.refreshed(second.refresh);
    expectInvalidGrant(await o.refresh(first.refresh));
    // "it will revoke the active refresh token": the newest token is dead too.
    expectInvalidGrant(await o.refresh(third.refresh));
    expect((await o.family(first.refresh)).live).toBe(0);
  });

  it("a retry after the window is a replay that revokes the login; within it (29 s of 30) it is not", async () => {
    const o = oauth(platform);
    const kept = await o.login();
    const keptNext = await o.refreshed(kept.refresh);
    await o.usedSecondsAgo(kept.refresh, 29);
    expect((await o.refreshed(kept.refresh)).refresh).toBe(keptNext.refresh);
    await o.expectAccess((await o.refreshed(keptNext.refresh)).access);

    const first = await o.login();
    const second = await o.refreshed(first.refresh);
    await o.usedSecondsAgo(first.refresh, 31);
    expectInvalidGrant(await o.refresh(first.refresh));
    expectInvalidGrant(await o.refresh(second.refresh));
    expect((await o.family(first.refresh)).live).toBe(0);
  });

  it("with REFRESH_REUSE_GRACE_SECONDS=1 the window closes in real time", async () => {
    const o = oauth(graceOneSecond);
    const first = await o.login();
    const second = await o.refreshed(first.refresh);
    await new Promise((r) => setTimeout(r, 1100));
    expectInvalidGrant(await o.refresh(first.refresh));
    expectInvalidGrant(await o.refresh(second.refresh));
  });

  it("concurrent retries of one token all get the same successor; it continues, once", async () => {
    const o = oauth(platform);
    const first = await o.login();
    const lost = await o.refreshed(first.refresh);
    const answers = await Promise.all(Array.from({ length: 6 }, () => o.refresh(first.refresh)));
    for (const res of answers) expect(res.status, res.text).toBe(200);
    expect(new Set(answers.map((res) => res.body.refresh_token))).toEqual(new Set([lost.refresh]));
    expect((await o.family(first.refresh)).live).toBe(1);
    await o.expectAccess((await o.refreshed(lost.refresh)).access);
    expect((await o.family(first.refresh)).live).toBe(1);
  });

  it("a retry racing the successor's own use: never two chains (the retry hands out the token being used, or it is a replay and all is revoked)", async () => {
    const o = oauth(platform);
    for (let round = 0; round < 5; round++) {
      const first = await o.login();
      const second = await o.refreshed(first.refresh);
      const [retry, moveOn] = await Promise.all([o.refresh(first.refresh), o.refresh(second.refresh)]);
      expect(moveOn.status, moveOn.text).toBe(200);
      expect([200, 400], retry.text).toContain(retry.status);
      if (retry.status === 200) expect(retry.body.refresh_token).toBe(second.refresh);
      const live = (await o.family(first.refresh)).live;
      expect(live).toBeLessThanOrEqual(1);
      const next = await o.refresh(moveOn.body.refresh_token);
      expect(next.status, next.text).toBe(live === 1 ? 200 : 400);
    }
  });

  it("a retry refused within the window (restricted customer, password login off) changes nothing: the unused successor still works", async () => {
    const o = oauth(platform);
    const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const customer = await createCustomer(platform.http, admin);
    const user = await createUser(platform.http, admin, customer.id, "EDITOR");
    const core = platform.knexOf("core");

    const first = await o.login(user.email, user.password);
    const second = await o.refreshed(first.refresh);
    await core("customer").where({ id: customer.id }).update({ restricted: true });
    try {
      const refused = await o.refresh(first.refresh);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.key).toBe("oauth.error.access_denied");
    } finally {
      await core("customer").where({ id: customer.id }).update({ restricted: false });
    }
    await core("app_user").where({ email: user.email }).update({ oauth_password_flow_enabled: false });
    try {
      expectInvalidGrant(await o.refresh(first.refresh));
    } finally {
      await core("app_user").where({ email: user.email }).update({ oauth_password_flow_enabled: true });
    }
    expect((await o.family(second.refresh)).live).toBe(1);
    await o.expectAccess((await o.refreshed(second.refresh)).access);
  });

  it("REFRESH_REUSE_GRACE_SECONDS=0: any reuse of a used token revokes the login, as before", async () => {
    const o = oauth(graceOff);
    const first = await o.login();
    const second = await o.refreshed(first.refresh);
    expectInvalidGrant(await o.refresh(first.refresh));
    expectInvalidGrant(await o.refresh(second.refresh));
    const family = await o.family(first.refresh);
    expect(family.live).toBe(0);
    expect(family.rows.every((r) => r.revoked_at)).toBe(true);
  });

  it("REFRESH_REUSE_GRACE_SECONDS takes whole seconds 0..300 (default 30) and refuses anything else", () => {
    expect(refreshReuseGraceSecondsFromEnv({})).toBe(30);
    expect(refreshReuseGraceSecondsFromEnv({ REFRESH_REUSE_GRACE_SECONDS: "" })).toBe(30);
    expect(refreshReuseGraceSecondsFromEnv({ REFRESH_REUSE_GRACE_SECONDS: "0" })).toBe(0);
    expect(refreshReuseGraceSecondsFromEnv({ REFRESH_REUSE_GRACE_SECONDS: " 45 " })).toBe(45);
    expect(refreshReuseGraceSecondsFromEnv({ REFRESH_REUSE_GRACE_SECONDS: "300" })).toBe(300);
    for (const bad of ["-1", "1.5", "soon", "1e3", "0x1e", "301"]) expect(() => refreshReuseGraceSecondsFromEnv({ REFRESH_REUSE_GRACE_SECONDS: bad })).toThrow(/REFRESH_REUSE_GRACE_SECONDS/);
  });
});
