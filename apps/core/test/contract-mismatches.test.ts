// Contract mismatches found against document 2 ("Customers", "Teams, tags, users,
// quick filters", "User", "Customer") and spec/ROLES.md, driven through the real gateway.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentTotpCode } from "@signage/auth";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { coreModule } from "../src/module.js";

let platform: TestPlatform;
let admin: string;
let customerId: number;
let owner: TenantUser;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], prefix: "core_contract_test" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  customerId = (await createCustomer(platform.http, admin, { name: "Contract Co" })).id;
  owner = await createUser(platform.http, admin, customerId, "OWNER");
});
afterAll(() => platform?.close());

const missing = (parameter: string) => ({ status: 400, key: "request.error.missingParameter", details: expect.objectContaining({ parameter }) });

async function storedDefault(id: number): Promise<string | null> {
  const row = await platform.knexOf("core")("customer").where({ id }).first("default_emergency_content_id");
  return row.default_emergency_content_id;
}

describe("setDefaultContents", () => {
  it("'`?defaultEmergencyContentId=<id or null>` | null removes it': absent is a 400 that changes nothing; null still removes it", async () => {
    const path = "/api/customer/settings/setDefaultContents";
    const set = await platform.http.put(path, { token: owner.token, query: { defaultEmergencyContentId: "content-42" } });
    expect(set.status, set.text).toBe(200);
    expect(await storedDefault(customerId)).toBe("content-42");

    const absent = await platform.http.put(path, { token: owner.token });
    expect(absent.body).toMatchObject(missing("defaultEmergencyContentId"));
    expect(await storedDefault(customerId)).toBe("content-42");
    const empty = await platform.http.put(path, { token: owner.token, query: { defaultEmergencyContentId: "" } });
    expect(empty.body).toMatchObject(missing("defaultEmergencyContentId"));
    expect(await storedDefault(customerId)).toBe("content-42");

    const cleared = await platform.http.put(path, { token: owner.token, query: { defaultEmergencyContentId: "null" } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(await storedDefault(customerId)).toBeNull();
  });
});

describe("required query parameters", () => {
  it("'PUT `/api/user/?email=<EMAIL>`', 'DELETE `/api/user/?email=<EMAIL>`', 'POST `/api/user/updateTeamAssignments?customerId=<id>&email=<EMAIL>`': without email a 400 naming it, not 404 \"User '' not found\"", async () => {
    const update = await platform.http.put("/api/user/", { token: owner.token, body: { name: "x" } });
    expect(update.body).toMatchObject(missing("email"));
    const remove = await platform.http.delete("/api/user/", { token: owner.token });
    expect(remove.body).toMatchObject(missing("email"));
    const teams = await platform.http.post("/api/user/updateTeamAssignments", { token: owner.token, query: { customerId }, body: { assignToTeams: [] } });
    expect(teams.body).toMatchObject(missing("email"));
  });

  it("'PUT `/api/team/?teamId=<id>`', 'GET `/api/team/{resourceType}Assignments?teamId=<id>`', 'PUT `/api/team/update{ResourceType}Assignments?teamId=<id>`': without teamId a 400 naming it", async () => {
    const update = await platform.http.put("/api/team/", { token: owner.token, body: { name: "renamed" } });
    expect(update.body).toMatchObject(missing("teamId"));
    const list = await platform.http.get("/api/team/userAssignments", { token: owner.token });
    expect(list.body).toMatchObject(missing("teamId"));
    const assign = await platform.http.put("/api/team/updateUserAssignments", { token: owner.token, body: { resourcesToAdd: [] } });
    expect(assign.body).toMatchObject(missing("teamId"));
  });

  it("'PUT `/api/quickFilter/?quickFilterId=<id>`, DELETE `/api/quickFilter/?quickFilterId=<id>`': without quickFilterId a 400 naming it", async () => {
    const update = await platform.http.put("/api/quickFilter/", { token: owner.token, body: { name: "x" } });
    expect(update.body).toMatchObject(missing("quickFilterId"));
    const remove = await platform.http.delete("/api/quickFilter/", { token: owner.token });
    expect(remove.body).toMatchObject(missing("quickFilterId"));
  });

  it("'PUT `/api/tag?tag=<t>&tagType=<TYPE>`', 'DELETE `/api/tag?tag=<t>&tagType=<TYPE>`': without tag a 400 naming it", async () => {
    const update = await platform.http.put("/api/tag", { token: owner.token, query: { tagType: "DEVICE" }, body: { comment: "c" } });
    expect(update.body).toMatchObject(missing("tag"));
    const remove = await platform.http.delete("/api/tag", { token: owner.token, query: { tagType: "DEVICE" } });
    expect(remove.body).toMatchObject(missing("tag"));
  });
});

describe("updating one's own user", () => {
  it("ROLES.md 'Users: create, update another user, delete another user | OWNER': a VIEWER updates its own profile fields", async () => {
    const viewer = await createUser(platform.http, admin, customerId, "VIEWER");
    const res = await platform.http.put("/api/user/", { token: viewer.token, query: { email: viewer.email }, body: { name: "me", language: "de", address: "Main St 1" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ email: viewer.email, name: "me", language: "de", address: "Main St 1", role: "VIEWER" });
    // Repeating a value it holds is no change.
    const echo = await platform.http.put("/api/user/", { token: viewer.token, query: { email: viewer.email }, body: { name: "me too", role: "VIEWER", readOnly: false, authProvider: "LOCAL" } });
    expect(echo.status, echo.text).toBe(200);
    expect(echo.body.name).toBe("me too");
  });

  it("a non-OWNER never changes its own role, restricted/readOnly flags, login methods, 2FA flags, trustedAdmin or password through PUT /api/user/ (403, nothing changes)", async () => {
    const editor = await createUser(platform.http, admin, customerId, "EDITOR");
    const refused: Record<string, unknown>[] = [
      { role: "OWNER" },
      { role: "VIEWER" },
      { restricted: true },
      { readOnly: true },
      { forceToSet2FA: true },
      { ssoLoginEnabled: true },
      { usernamePasswordLoginEnabled: false },
      { oauthPasswordFlowEnabled: false },
      { magicCodeLoginEnabled: true },
      { password: "new-password-1" },
    ];
    for (const body of refused) {
      const res = await platform.http.put("/api/user/", { token: editor.token, query: { email: editor.email }, body: { name: "sneaky", ...body } });
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.key, JSON.stringify(body)).toBe("auth.error.forbidden");
    }
    const provider = await platform.http.put("/api/user/", { token: editor.token, query: { email: editor.email }, body: { authProvider: "LDAP" } });
    expect(provider.status).toBeGreaterThanOrEqual(400);
    const row = await platform.knexOf("core")("app_user").whereRaw("lower(email) = lower(?)", [editor.email]).first();
    expect(row).toMatchObject({ name: editor.email, role: "EDITOR", restricted: false, read_only: false, auth_provider: "LOCAL" });
    await expect(platform.http.login(editor.email, editor.password)).resolves.toBeTruthy();
  });

  it("'update another user ... OWNER': a non-OWNER updating or deleting someone else is still a 403 requiredRole OWNER, and an OWNER still updates others", async () => {
    const viewer = await createUser(platform.http, admin, customerId, "VIEWER");
    const other = await createUser(platform.http, admin, customerId, "VIEWER");
    const update = await platform.http.put("/api/user/", { token: viewer.token, query: { email: other.email }, body: { name: "hijack" } });
    expect(update.status).toBe(403);
    expect(update.body).toMatchObject({ key: "auth.error.forbidden", details: { requiredRole: "OWNER" } });
    // Unknown users are not revealed to a non-OWNER either.
    const unknown = await platform.http.put("/api/user/", { token: viewer.token, query: { email: "nobody@example.test" }, body: { name: "x" } });
    expect(unknown.status).toBe(403);
    const remove = await platform.http.delete("/api/user/", { token: viewer.token, query: { email: other.email } });
    expect(remove.status).toBe(403);
    const byOwner = await platform.http.put("/api/user/", { token: owner.token, query: { email: other.email }, body: { name: "renamed", role: "EDITOR", readOnly: true } });
    expect(byOwner.status, byOwner.text).toBe(200);
    expect(byOwner.body).toMatchObject({ name: "renamed", role: "EDITOR", readOnly: true });
  });
});

describe("force2FA", () => {
  it("Customer 'force2FA | boolean | mandatory 2FA for all users': its users without 2FA get forceToSet2FA true (me and lists) and still log in; set up 2FA clears it", async () => {
    const forced = (await createCustomer(platform.http, admin, { name: "Forced 2FA Co" })).id;
    const free = await createUser(platform.http, admin, customerId, "VIEWER");
    const viewer = await createUser(platform.http, admin, forced, "VIEWER");
    const put = await platform.http.put(`/api/customer/${forced}`, { token: admin, body: { force2FA: true } });
    expect(put.status, put.text).toBe(200);

    // "use2FA, forceToSet2FA | boolean": no login is blocked, the flag tells the client to set 2FA up.
    const token = await platform.http.login(viewer.email, viewer.password);
    const me = await platform.http.get("/api/v2/user/me", { token });
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ use2FA: false, forceToSet2FA: true, customer: { id: forced, force2FA: true } });
    expect((await platform.http.get("/api/v2/user/me", { token: free.token })).body.forceToSet2FA).toBe(false);

    for (const select of ["email,forceToSet2FA", "*"]) {
      const list = await platform.http.get("/api/v2/user", { token: admin, query: { customerId: forced, search: `email=${viewer.email}`, select } });
      expect(list.status, list.text).toBe(200);
      expect(list.body.content[0].forceToSet2FA, select).toBe(true);
    }
    const other = await platform.http.get("/api/v2/user", { token: admin, query: { customerId, search: `email=${free.email}`, select: "email,forceToSet2FA" } });
    expect(other.body.content[0].forceToSet2FA).toBe(false);
    // Search agrees with what is rendered: the customer's force2FA counts.
    const searched = await platform.http.get("/api/v2/user", { token: admin, query: { customerId: forced, search: "forceToSet2FA=true", select: "email" } });
    expect(searched.body.content.map((u: { email: string }) => u.email)).toContain(viewer.email);
    // The user's own profile update waits until 2FA is set up (mandatory-2fa.test.ts). Echoing the
    // rendered value back in an update is no change: it does not pin the user's own flag.
    const own = await platform.http.put("/api/user/", { token, query: { email: viewer.email }, body: { name: "forced" } });
    expect(own.body.key, own.text).toBe("user.error.twoFactorSetupRequired");
    const echo = await platform.http.put("/api/user/", { token: admin, query: { email: viewer.email }, body: { name: "forced", forceToSet2FA: true } });
    expect(echo.status, echo.text).toBe(200);
    expect(echo.body.forceToSet2FA).toBe(true);

    const start = await platform.http.post("/api/user/2fa", { token, query: { enable: true } });
    const confirm = await platform.http.post("/api/user/2fa", { token, query: { enable: true, totp: currentTotpCode(start.body.secret) } });
    expect(confirm.body.use2FA).toBe(true);
    const after = await platform.http.get("/api/v2/user/me", { token });
    expect(after.body).toMatchObject({ use2FA: true, forceToSet2FA: false });
  });
});

describe("'POST `/api/user/2fa?totp=<code>&enable=<bool>`'", () => {
  it("turning 2FA off takes the code in the documented totp parameter (the x-totp header works as well)", async () => {
    const user = await createUser(platform.http, admin, customerId, "VIEWER");
    const start = await platform.http.post("/api/user/2fa", { token: user.token, query: { enable: true } });
    const secret = start.body.secret as string;
    // Codes are one-time (RFC 6238 5.2): confirm with the previous time step's code, turn off with the current one.
    const confirm = await platform.http.post("/api/user/2fa", { token: user.token, query: { enable: true, totp: currentTotpCode(secret, Date.now() - 30_000) } });
    expect(confirm.body.use2FA).toBe(true);

    const without = await platform.http.post("/api/user/2fa", { token: user.token, query: { enable: false } });
    expect(without.status, without.text).toBe(403);
    expect(without.body.key).toBe("auth.error.totpRequired");
    const wrong = await platform.http.post("/api/user/2fa", { token: user.token, query: { enable: false, totp: "000000" === currentTotpCode(secret) ? "111111" : "000000" } });
    expect(wrong.status, wrong.text).toBe(403);
    expect(wrong.body.key).toBe("auth.error.totpInvalid");
    const off = await platform.http.post("/api/user/2fa", { token: user.token, query: { enable: false, totp: currentTotpCode(secret) } });
    expect(off.status, off.text).toBe(200);
    expect(off.body.use2FA).toBe(false);
    expect((await platform.http.get("/api/v2/user/me", { token: user.token })).body.use2FA).toBe(false);
  });
});

describe("'use2FA' on PUT `/api/user/`", () => {
  it("an OWNER cannot turn another user's 2FA on (it needs the user's authenticator): 400 naming the way, not a silent no-op", async () => {
    const user = await createUser(platform.http, admin, customerId, "VIEWER");
    const res = await platform.http.put("/api/user/", { token: owner.token, query: { email: user.email }, body: { use2FA: true } });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ key: "user.error.use2faSelfService", details: { fields: "use2FA" } });
    const off = await platform.http.put("/api/user/", { token: owner.token, query: { email: user.email }, body: { use2FA: false } });
    expect(off.status, off.text).toBe(200);
  });
});

describe("teamAssignments on users and quick filters", () => {
  it("'All team-enabled resources ... expose `teamAssignments`': selectable on users and quick filters; an unselected field never renders", async () => {
    const team = await platform.http.post("/api/team/", { token: owner.token, body: { name: "Night shift" } });
    expect(team.status, team.text).toBe(200);
    const teamId = team.body.id as string;
    const member = await createUser(platform.http, admin, customerId, "VIEWER");
    const assigned = await platform.http.post("/api/user/updateTeamAssignments", {
      token: owner.token,
      query: { customerId, email: member.email },
      body: { assignToTeams: [{ teamId, readOnly: true }] },
    });
    expect(assigned.status, assigned.text).toBeLessThan(300);

    const users = await platform.http.get("/api/v2/user", { token: owner.token, query: { search: `email=${member.email}`, select: "email,teamAssignments(readOnly,team(id,name))" } });
    expect(users.status, users.text).toBe(200);
    expect(users.body.content).toEqual([{ id: expect.any(String), email: member.email, teamAssignments: [{ readOnly: true, team: { id: teamId, name: "Night shift" } }] }]);
    const onlyTeams = await platform.http.get("/api/v2/user", { token: owner.token, query: { search: `email=${member.email}`, select: "teamAssignments(team(name))" } });
    expect(onlyTeams.status, onlyTeams.text).toBe(200);
    // "`id` is always included": the team's too.
    expect(onlyTeams.body.content).toEqual([{ id: expect.any(String), teamAssignments: [{ team: { id: teamId, name: "Night shift" } }] }]);
    const byTeam = await platform.http.get("/api/v2/user", { token: owner.token, query: { search: `teamAssignments.team.id=${teamId}`, select: "email" } });
    expect(byTeam.body.content).toEqual([{ id: expect.any(String), email: member.email }]);
    const star = await platform.http.get("/api/v2/user", { token: owner.token, query: { search: `email=${member.email}` } });
    expect(star.body.content[0].teamAssignments).toBeUndefined();
    // A single user renders its assignments as the list's select does.
    const me = await platform.http.get("/api/v2/user/me", { token: member.token });
    expect(me.body.teamAssignments).toEqual([{ readOnly: true, team: { id: teamId, name: "Night shift" } }]);

    const filter = await platform.http.post("/api/quickFilter/", {
      token: owner.token,
      query: { customerId, teamIds: `${teamId}:false` },
      body: { name: "Team filter", filteredEntityType: "FILE", criteria: { name: "poster" } },
    });
    expect(filter.status, filter.text).toBe(200);
    expect(filter.body.teamAssignments).toEqual([{ readOnly: false, team: { id: teamId, name: "Night shift" } }]);
    const filters = await platform.http.get("/api/v2/quickFilter", { token: owner.token, query: { search: `id=${filter.body.id}`, select: "name,teamAssignments(readOnly,team(id,name))" } });
    expect(filters.status, filters.text).toBe(200);
    expect(filters.body.content).toEqual([{ id: filter.body.id, name: "Team filter", teamAssignments: [{ readOnly: false, team: { id: teamId, name: "Night shift" } }] }]);
    const plain = await platform.http.get("/api/v2/quickFilter", { token: owner.token, query: { search: `id=${filter.body.id}`, select: "name" } });
    expect(plain.body.content).toEqual([{ id: filter.body.id, name: "Team filter" }]);
  });
});
