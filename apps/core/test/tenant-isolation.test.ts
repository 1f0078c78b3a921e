// Cross-tenant and team isolation of core's team-enabled resources over HTTP, from the
// "Customer scoping" table ("Other roles | own tenant | own tenant") and "restricted = sees
// only team-assigned resources".
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { FilteredEntityType, QuickFilterService } from "@signage/contracts/signage/core/v1/quick_filter_pb";
import { createInMemoryTransport } from "@signage/platform";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { coreModule } from "../src/module.js";

let platform: TestPlatform;
let admin: string;
let customerB: number;
let ownerA: TenantUser;
let viewerA: TenantUser;
let ownerB: TenantUser;
let userOfB: string;
let filterOfB: string;
let teamOfB: string;

const team = async (token: string, name: string) => {
  const res = await platform.http.post("/api/team/", { token, body: { name } });
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
};

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], prefix: "core_isolation_test" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const customerA = (await createCustomer(platform.http, admin, { name: "Isolation A" })).id;
  customerB = (await createCustomer(platform.http, admin, { name: "Isolation B" })).id;
  ownerA = await createUser(platform.http, admin, customerA, "OWNER");
  viewerA = await createUser(platform.http, admin, customerA, "VIEWER");
  ownerB = await createUser(platform.http, admin, customerB, "OWNER");
  const viewerB = await createUser(platform.http, admin, customerB, "VIEWER");
  userOfB = (await platform.http.get("/api/v2/user", { token: ownerB.token, query: { search: `email=${viewerB.email}`, select: "id" } })).body.content[0].id;
  teamOfB = await team(ownerB.token, "B night shift");
  const filter = await platform.http.post("/api/quickFilter/", {
    token: ownerB.token,
    query: { teamIds: teamOfB },
    body: { name: "B filter", filteredEntityType: "FILE", criteria: { search: "type=IMAGE" } },
  });
  expect(filter.status, filter.text).toBe(200);
  filterOfB = filter.body.id;
});
afterAll(() => platform?.close());

describe("another tenant's team assignments stay out of reach ('Other roles | own tenant | own tenant')", () => {
  it("reading a quick filter's or a user's teams with customerId=<other tenant> answers 404", async () => {
    const filterTeams = await platform.http.get(`/api/team/quickFilter/${filterOfB}/assignments`, { token: viewerA.token, query: { customerId: customerB } });
    expect(filterTeams.status, filterTeams.text).toBe(404);
    const userTeams = await platform.http.get(`/api/team/user/${userOfB}/assignments`, { token: viewerA.token, query: { customerId: customerB } });
    expect(userTeams.status, userTeams.text).toBe(404);
    expect((await platform.http.get(`/api/team/user/${userOfB}/assignments`, { token: ownerB.token })).status).toBe(200);
    // The tenant's own OWNER still reads them.
    const own = await platform.http.get(`/api/team/quickFilter/${filterOfB}/assignments`, { token: ownerB.token });
    expect(own.status, own.text).toBe(200);
    expect(own.body).toEqual([{ teamId: teamOfB, readOnly: false }]);
  });

  it("changing them with customerId=<other tenant> answers 404 and changes nothing", async () => {
    const removed = await platform.http.post("/api/quickFilter/updateTeamAssignments", {
      token: ownerA.token,
      query: { quickFilterId: filterOfB, customerId: customerB },
      body: { assignToTeams: [], removeFromTeamIds: [teamOfB] },
    });
    expect(removed.status, removed.text).toBe(404);
    const after = await platform.http.get(`/api/team/quickFilter/${filterOfB}/assignments`, { token: ownerB.token });
    expect(after.body).toEqual([{ teamId: teamOfB, readOnly: false }]);
  });
});

/** A user of tenant B (EDITOR unless named), restricted, member of a new team of its own. */
async function restrictedUserOfB(teamName: string, role = "EDITOR") {
  const teamId = await team(ownerB.token, teamName);
  const user = await createUser(platform.http, admin, customerB, role);
  const assigned = await platform.http.post("/api/user/updateTeamAssignments", {
    token: ownerB.token,
    query: { email: user.email },
    body: { assignToTeams: [{ teamId, readOnly: false }], removeFromTeamIds: [] },
  });
  expect(assigned.status, assigned.text).toBeLessThan(300);
  const flagged = await platform.http.put("/api/user/", { token: admin, query: { email: user.email }, body: { restricted: true } });
  expect(flagged.status, flagged.text).toBe(200);
  return { email: user.email, teamId, token: await platform.http.login(user.email, user.password) };
}

describe("'restricted = sees only team-assigned resources' on a single quick filter", () => {
  it("a restricted user gets 404 for a quick filter its teams hide, exactly as for one that does not exist", async () => {
    const { token } = await restrictedUserOfB("B day shift");

    const hidden = await platform.http.get(`/api/quickFilter/${filterOfB}`, { token });
    const missing = await platform.http.get("/api/quickFilter/00000000-0000-4000-8000-000000000000", { token });
    expect(hidden.status, hidden.text).toBe(404);
    expect(hidden.body.key).toBe(missing.body.key);
    const update = await platform.http.put("/api/quickFilter/", { token, query: { quickFilterId: filterOfB }, body: { name: "taken over" } });
    expect(update.status, update.text).toBe(404);
    expect(update.body.key).toBe(missing.body.key);
    const removed = await platform.http.delete("/api/quickFilter/", { token, query: { quickFilterId: filterOfB } });
    expect(removed.status, removed.text).toBe(404);
    expect(removed.body.key).toBe(missing.body.key);
    // Its owner still reads it.
    expect((await platform.http.get(`/api/quickFilter/${filterOfB}`, { token: ownerB.token })).status).toBe(200);
  });

  it("CompileQuickFilter applies a hidden filter for a filtered folder only when that folder really uses it (its FILE_FOLDER usage)", async () => {
    const { token } = await restrictedUserOfB("B night owls");
    const core = platform.running.find((m) => m.name === "core")!;
    const bearer: Interceptor = (next) => (req) => (req.header.set("authorization", `Bearer ${token}`), next(req));
    const client = createClient(QuickFilterService, createInMemoryTransport(core.service.routes, { interceptors: core.service.interceptors, clientInterceptors: [bearer] }));
    const folderId = randomUUID();
    const compile = () => client.compileQuickFilter({ quickFilterId: filterOfB, expectedEntityType: FilteredEntityType.FILE, filteredFolderId: folderId });
    // A claimed folder that does not use the filter lends it nothing: hidden, so unknown.
    expect(await compile().then(() => undefined, (e) => ConnectError.from(e).code)).toBe(Code.NotFound);
    await platform.knexOf("core")("quick_filter_usage").insert({ quick_filter_id: filterOfB, used_by_type: "FILE_FOLDER", used_by_id: folderId, customer_id: customerB, used: true, version: 1 });
    expect((await compile()).search).toContain("IMAGE");
  });
});

describe("'restricted = sees only team-assigned resources' on users", () => {
  it("a restricted user's simple user list and lookups by email leave out users of teams it is not in, as /api/v2/user does", async () => {
    const hidden = await createUser(platform.http, admin, customerB, "VIEWER");
    const assigned = await platform.http.post("/api/user/updateTeamAssignments", {
      token: ownerB.token,
      query: { email: hidden.email },
      body: { assignToTeams: [{ teamId: teamOfB, readOnly: false }], removeFromTeamIds: [] },
    });
    expect(assigned.status, assigned.text).toBeLessThan(300);
    const restricted = await restrictedUserOfB("B evening shift");

    const simple = await platform.http.get("/api/user/simple", { token: restricted.token });
    expect(simple.status, simple.text).toBe(200);
    const emails = (simple.body as { email: string }[]).map((u) => u.email);
    expect(emails).toContain(restricted.email);
    expect(emails).not.toContain(hidden.email);
    const listed = await platform.http.get("/api/v2/user", { token: restricted.token, query: { select: "email", size: 1000 } });
    expect(listed.body.content.map((u: { email: string }) => u.email).sort()).toEqual([...emails].sort());
    // Looked up by email, the hidden user is as missing as one that does not exist.
    const picture = await platform.http.get("/api/v2/user/profilePicture", { token: restricted.token, query: { email: hidden.email } });
    const nobody = await platform.http.get("/api/v2/user/profilePicture", { token: restricted.token, query: { email: "nobody@example.test" } });
    expect(picture.status, picture.text).toBe(404);
    expect(picture.body.key).toBe(nobody.body.key);
    expect(picture.body.key).toBe("user.error.notFound");
    // An unrestricted OWNER sees both.
    const all = (await platform.http.get("/api/user/simple", { token: ownerB.token })).body.map((u: { email: string }) => u.email);
    expect(all).toEqual(expect.arrayContaining([restricted.email, hidden.email]));
  });
});

describe("users on read-only team assignments", () => {
  it("a restricted OWNER cannot change or delete a user it sees only through a read-only assignment (403 team.error.readOnly), and can one on a writable one", async () => {
    const restrictedOwner = await restrictedUserOfB("B managers", "OWNER");
    const assign = async (readOnly: boolean) => {
      const user = await createUser(platform.http, admin, customerB, "VIEWER");
      const res = await platform.http.post("/api/user/updateTeamAssignments", {
        token: ownerB.token,
        query: { email: user.email },
        body: { assignToTeams: [{ teamId: restrictedOwner.teamId, readOnly }], removeFromTeamIds: [] },
      });
      expect(res.status, res.text).toBeLessThan(300);
      return user;
    };
    const readOnlyUser = await assign(true);
    const writableUser = await assign(false);

    const update = await platform.http.put("/api/user/", { token: restrictedOwner.token, query: { email: readOnlyUser.email }, body: { name: "changed" } });
    expect(update.status, update.text).toBe(403);
    expect(update.body.key).toBe("team.error.readOnly");
    const remove = await platform.http.delete("/api/user/", { token: restrictedOwner.token, query: { email: readOnlyUser.email } });
    expect(remove.status, remove.text).toBe(403);
    const ok = await platform.http.put("/api/user/", { token: restrictedOwner.token, query: { email: writableUser.email }, body: { name: "changed" } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.name).toBe("changed");
  });
});

describe("ADMIN 'with: that tenant' naming a customer that does not exist", () => {
  it("creating a user, team, tag or quick filter there answers 404 customer.error.notFound, not 500", async () => {
    const customerId = 999_999;
    const attempts = [
      platform.http.post("/api/user/", { token: admin, query: { customerId }, body: { email: "ghost@example.test", name: "Ghost", role: "VIEWER", password: "long-enough-1" } }),
      platform.http.post("/api/team/", { token: admin, query: { customerId }, body: { name: "Ghost team" } }),
      platform.http.post("/api/tag", { token: admin, query: { customerId, tagType: "DEVICE" }, body: { tag: "ghost" } }),
      platform.http.post("/api/quickFilter/", { token: admin, query: { customerId }, body: { name: "Ghost filter", filteredEntityType: "FILE", criteria: { search: "type=IMAGE" } } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status, res.text).toBe(404);
      expect(res.body).toMatchObject({ key: "customer.error.notFound", details: { id: customerId } });
    }
  });
});
