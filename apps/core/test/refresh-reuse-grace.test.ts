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
// 30) of a token's first use, and while its successor was never used, presenting it again gets a
// new successor in the same login and the unused one is revoked, so one chain continues. Once the
// successor was used (two parties hold the chain: the BCP's breach signal), after the window, or
// with the grace at 0, it stays a replay that revokes the whole login.
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
  it("a retry within the window, its successor unused, gets a working pair; the unused successor is dead; the login continues through the new one", async () => {
    const o = oauth(platform);
    const first = await o.login();
    const lost = await o.refreshed(first.refresh); // the response that never reached the client
    const retried = await o.refreshed(first.refresh);
    expect(retried.refresh).not.toBe(lost.refresh);
    expect(retried.refresh).not.toBe(first.refresh);
    await o.expectAccess(retried.access);
    expect((await o.family(retried.refresh)).live).toBe(1);
    const next = await o.refreshed(retried.refresh);
    await o.expectAccess(next.access);
    const after = await o.refreshed(next.refresh);
    await o.expectAccess(after.access);
    const family = await o.family(after.refresh);
    expect(family.familyId).toBe((await o.family(first.refresh)).familyId);
    expect(family.live).toBe(1);
    // The successor the retry said was lost turns up after all: one of its two holders is not the
    // client. RFC 9700 4.14.2: "If a refresh token is compromised and subsequently used by both the
    // attacker and the legitimate client, one of them will present an invalidated refresh token,
    // which will inform the authorization server of the breach": the whole login is revoked.
    expectInvalidGrant(await o.refresh(lost.refresh));
    expect((await o.family(after.refresh)).live).toBe(0);
    expectInvalidGrant(await o.refresh(after.refresh));
  });

  it("every retry within the window replaces the previous unused successor (a client retrying twice)", async () => {
    const o = oauth(platform);
    const first = await o.login();
    const a = await o.refreshed(first.refresh);
    const b = await o.refreshed(first.refresh);
    const c = await o.refreshed(first.refresh);
    const next = await o.refreshed(c.refresh);
    await o.expectAccess(next.access);
    expect((await o.family(next.refresh)).live).toBe(1);
    // A superseded successor presented later is a replay: the login ends.
    expectInvalidGrant(await o.refresh(b.refresh));
    expect((await o.family(next.refresh)).live).toBe(0);
    expectInvalidGrant(await o.refresh(a.refresh));
    expectInvalidGrant(await o.refresh(next.refresh));
  });

  it("a retry after the successor was used is a replay: the whole login is revoked (unchanged)", async () => {
    const o = oauth(platform);
    const first = await o.login();
    const second = await o.refreshed(first.refresh);
    const third = await o.refreshed(second.refresh); // the client moved on
    expectInvalidGrant(await o.refresh(first.refresh));
    // "it will revoke the active refresh token": the newest token is dead too.
    expectInvalidGrant(await o.refresh(third.refresh));
    const family = await o.family(first.refresh);
    expect(family.live).toBe(0);
    expect(family.rows.every((r) => r.revoked_at)).toBe(true);
  });

  it("a retry after the window is a replay that revokes the login; within it (29 s of 30) it is not", async () => {
    const o = oauth(platform);
    const kept = await o.login();
    const keptNext = await o.refreshed(kept.refresh);
    await o.usedSecondsAgo(kept.refresh, 29);
    const keptRetry = await o.refreshed(kept.refresh);
    await o.expectAccess((await o.refreshed(keptRetry.refresh)).access);
    expect((await o.family(keptNext.refresh)).live).toBe(1);

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
    expect((await o.family(first.refresh)).live).toBe(0);
  });

  it("concurrent retries of one token: at most one successor stays live and exactly one chain continues", async () => {
    const o = oauth(platform);
    const first = await o.login();
    const lost = await o.refreshed(first.refresh);
    const answers = await Promise.all(Array.from({ length: 6 }, () => o.refresh(first.refresh)));
    for (const res of answers) expect([200, 400], res.text).toContain(res.status);
    expect(answers.some((res) => res.status === 200)).toBe(true);
    expect((await o.family(first.refresh)).live).toBe(1);
    const candidates = [lost.refresh, ...answers.filter((res) => res.status === 200).map((res) => res.body.refresh_token as string)];
    expect(new Set(candidates).size).toBe(candidates.length);
    // Exactly one received successor is the live one, and it refreshes (trying a superseded one
    // first would end the login: a replay).
    const knex = platform.knexOf("core");
    const liveRows = await knex("refresh_token").where({ family_id: (await o.family(first.refresh)).familyId }).whereNull("rotated_at").whereNull("revoked_at").select("token_hash");
    const liveOnes = candidates.filter((refresh) => liveRows.some((r: { token_hash: string }) => r.token_hash === hashToken(refresh)));
    expect(liveOnes).toHaveLength(1);
    const continued = await o.refreshed(liveOnes[0]!);
    await o.expectAccess(continued.access);
    expect((await o.family(first.refresh)).live).toBe(1);
  });

  it("a retry racing the successor's own use: never two chains (the retry wins and the successor is dead, or it is a replay and all is revoked)", async () => {
    const o = oauth(platform);
    for (let round = 0; round < 5; round++) {
      const first = await o.login();
      const second = await o.refreshed(first.refresh);
      const [retry, moveOn] = await Promise.all([o.refresh(first.refresh), o.refresh(second.refresh)]);
      for (const res of [retry, moveOn]) expect([200, 400], res.text).toContain(res.status);
      const received = [retry, moveOn].filter((res) => res.status === 200).map((res) => res.body.refresh_token as string);
      const live = (await o.family(first.refresh)).live;
      expect(live).toBeLessThanOrEqual(1);
      let continuing = 0;
      for (const refresh of received) if ((await o.refresh(refresh)).status === 200) continuing++;
      expect(continuing, `${retry.status} ${retry.text} / ${moveOn.status} ${moveOn.text}`).toBe(live);
      expect(continuing).toBeLessThanOrEqual(1);
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

  it("REFRESH_REUSE_GRACE_SECONDS takes whole seconds >= 0 (default 30) and refuses anything else", () => {
    expect(refreshReuseGraceSecondsFromEnv({})).toBe(30);
    expect(refreshReuseGraceSecondsFromEnv({ REFRESH_REUSE_GRACE_SECONDS: "" })).toBe(30);
    expect(refreshReuseGraceSecondsFromEnv({ REFRESH_REUSE_GRACE_SECONDS: "0" })).toBe(0);
    expect(refreshReuseGraceSecondsFromEnv({ REFRESH_REUSE_GRACE_SECONDS: " 45 " })).toBe(45);
    for (const bad of ["-1", "1.5", "soon"]) expect(() => refreshReuseGraceSecondsFromEnv({ REFRESH_REUSE_GRACE_SECONDS: bad })).toThrow(/REFRESH_REUSE_GRACE_SECONDS/);
  });
});
