// Teams over HTTP (document 2 "Team", "Teams on resources", "User",
// "Customer" team access settings): core + media behind the real gateway.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform, eventually } from "@signage/testing";

let platform: TestPlatform;
let admin: string;
let customerId: number;
let owner: TenantUser;
let restricted: TenantUser;
let teamA: string;
let teamB: string;
let root: string;
const folders: Record<string, string> = {};


const http = () => platform.http;

async function folderNames(token: string, query: Record<string, string | number | boolean> = {}) {
  const res = await http().get("/api/v2/fileFolder", { token, query: { size: 100, ...query } });
  expect(res.status, res.text).toBe(200);
  return (res.body.content as { id: string; name?: string }[]).map((f) => f.name ?? "(root)").sort();
}

async function folderCount(token: string) {
  const res = await http().get("/api/v2/fileFolder", { token, query: { size: 1, select: "id" } });
  return res.body.totalElements as number;
}

async function createFolder(name: string, teamIds?: string) {
  const res = await http().post("/api/fileFolder/", { token: owner.token, query: { parentId: root, name, teamIds } });
  expect(res.status, res.text).toBe(200);
  folders[name] = res.body.id;
  return res.body.id as string;
}

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "teams_e2e" });
  admin = await http().login(TEST_ADMIN.email, TEST_ADMIN.password);
  customerId = (await createCustomer(http(), admin)).id;
  owner = await createUser(http(), admin, customerId, "OWNER");
  // A restricted OWNER: may change assignments by role, but only where its teams allow.
  restricted = await createUser(http(), admin, customerId, "OWNER", { restricted: true });
  teamA = (await http().post("/api/team/", { token: owner.token, body: { name: "Team A", comment: "first" } })).body.id;
  teamB = (await http().post("/api/team/", { token: owner.token, body: { name: "Team B" } })).body.id;
  const assigned = await http().post("/api/user/updateTeamAssignments", {
    token: owner.token,
    query: { email: restricted.email },
    body: { assignToTeams: [{ teamId: teamA, readOnly: false }], removeFromTeamIds: [] },
  });
  expect(assigned.status, assigned.text).toBeLessThan(300);
  const roots = await eventually(() => http().get("/api/v2/fileFolder", { token: owner.token, query: { search: "parentId=NULL" } }), (r) => r.body.content?.length === 1, "root folder");
  root = roots.body.content[0].id;
  await createFolder("A", `${teamA}:false`);
  await createFolder("A-readonly", `${teamA}:true`);
  await createFolder("B", `${teamB}:false`);
  await createFolder("none");
}, 120_000);
afterAll(() => platform?.close());

describe("teams CRUD", () => {
  it("'name (required on create)': a team without name is refused with 400", async () => {
    const res = await http().post("/api/team/", { token: owner.token, body: { comment: "no name" } });
    expect(res.status).toBe(400);
    expect(res.body.key).toBe("team.error.nameRequired");
  });

  it("lists, updates (PUT /api/team/?teamId=) and counts 'teamUserNumber' / 'team{Resource}Number'", async () => {
    const updated = await http().put("/api/team/", { token: owner.token, query: { teamId: teamA }, body: { comment: "renamed comment" } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ id: teamA, name: "Team A", comment: "renamed comment" });
    const list = await http().get("/api/team/", { token: owner.token, query: { includeTeamUserNumber: true, includeTeamResourceNumber: true } });
    expect(list.status, list.text).toBe(200);
    const a = list.body.content.find((t: { id: string }) => t.id === teamA);
    expect(a).toMatchObject({ name: "Team A", teamUserNumber: 1, teamFileFolderNumber: 2, teamFileNumber: 0 });
    const plain = await http().get("/api/team/", { token: owner.token });
    expect(plain.body.content[0].teamUserNumber).toBeUndefined();
  });

  it("a team of another tenant is not found", async () => {
    const other = await createCustomer(http(), admin);
    const otherOwner = await createUser(http(), admin, other.id, "OWNER");
    expect((await http().put("/api/team/", { token: otherOwner.token, query: { teamId: teamA }, body: { name: "x" } })).status).toBe(404);
    expect((await http().get("/api/team/", { token: otherOwner.token })).body.totalElements).toBe(0);
  });
});

describe("team visibility", () => {
  it("'restricted = sees only team-assigned resources': team A's user never sees team B's folders, in a list or a count", async () => {
    // The restricted user's facts reach media by events: wait until they apply.
    const names = await eventually(() => folderNames(restricted.token), (n) => !n.includes("B"), "restricted list");
    expect(names).toEqual(["(root)", "A", "A-readonly", "none"]);
    expect(await folderCount(restricted.token)).toBe(4);
    expect(await folderNames(owner.token)).toEqual(["(root)", "A", "A-readonly", "B", "none"]);
    expect(await folderCount(owner.token)).toBe(5);
    // Filters cannot widen the scope.
    expect(await folderNames(restricted.token, { search: `teamAssignments.team.id=${teamB}` })).toEqual([]);
    expect(await folderNames(restricted.token, { selectTeamIds: teamB })).toEqual([]);
  });

  it("filters 'teamAssignments.team.id=<id>', 'teamAssignments=NULL', 'teamAssignments=!NULL', selectTeamIds, includeResourcesWithoutTeam", async () => {
    expect(await folderNames(owner.token, { search: `teamAssignments.team.id=${teamA}` })).toEqual(["A", "A-readonly"]);
    expect(await folderNames(owner.token, { search: "teamAssignments=NULL" })).toEqual(["(root)", "none"]);
    expect(await folderNames(owner.token, { search: "teamAssignments=!NULL" })).toEqual(["A", "A-readonly", "B"]);
    expect(await folderNames(owner.token, { selectTeamIds: teamB })).toEqual(["B"]);
    expect(await folderNames(owner.token, { selectTeamIds: teamB, includeResourcesWithoutTeam: true })).toEqual(["(root)", "B", "none"]);
    // `select=teamAssignments(...)` renders once the FileFolder message carries the field
    // (signage.common.v1.ResourceTeamAssignment); the relation itself is searched above.
  });

  it("'readOnly' is computed per caller (includeReadOnlyInfo) from read-only assignments", async () => {
    const res = await http().get("/api/v2/fileFolder", { token: restricted.token, query: { includeReadOnlyInfo: true, select: "name,readOnly" } });
    const byName = Object.fromEntries(res.body.content.map((f: { name?: string; readOnly: boolean }) => [f.name ?? "(root)", f.readOnly]));
    expect(byName).toEqual({ "(root)": false, A: false, "A-readonly": true, none: false });
    const ownerView = await http().get("/api/v2/fileFolder", { token: owner.token, query: { includeReadOnlyInfo: true, search: "name=A-readonly", select: "name,readOnly" } });
    expect(ownerView.body.content[0].readOnly).toBe(false);
  });

  it("read-only assignments refuse writes; another team's resources are not found", async () => {
    const body = { assignToTeams: [], removeFromTeamIds: [teamA] };
    const readOnly = await http().post("/api/fileFolder/updateTeamAssignments", { token: restricted.token, query: { fileFolderId: folders["A-readonly"] }, body });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.key).toBe("team.error.readOnly");
    const hidden = await http().post("/api/fileFolder/updateTeamAssignments", { token: restricted.token, query: { fileFolderId: folders.B }, body });
    expect(hidden.status).toBe(404);
    const writable = await http().post("/api/fileFolder/updateTeamAssignments", {
      token: restricted.token,
      query: { fileFolderId: folders.A },
      body: { assignToTeams: [{ teamId: teamA, readOnly: false }] },
    });
    expect(writable.status, writable.text).toBeLessThan(300);
  });

  it("restricted users see only users of their teams (and users without team)", async () => {
    const onlyB = await createUser(http(), admin, customerId, "VIEWER");
    await http().post("/api/user/updateTeamAssignments", { token: owner.token, query: { email: onlyB.email }, body: { assignToTeams: [{ teamId: teamB, readOnly: false }] } });
    const emails = async (token: string) => ((await http().get("/api/v2/user", { token, query: { size: 100 } })).body.content as { email: string }[]).map((u) => u.email);
    expect(await emails(restricted.token)).not.toContain(onlyB.email);
    expect(await emails(restricted.token)).toContain(owner.email);
    expect(await emails(owner.token)).toContain(onlyB.email);
  });

  it("'accessResourcesWithoutTeam' false hides resources without team from restricted users", async () => {
    const put = await http().put("/api/customer/settings/teams", { token: owner.token, body: { accessResourcesWithoutTeam: false } });
    expect(put.status, put.text).toBe(200);
    const names = await eventually(() => folderNames(restricted.token), (n) => !n.includes("none"), "without-team hidden");
    // The root itself stays shown ("To create something in the root, first read the root id"); its team-less contents do not.
    expect(names).toEqual(["(root)", "A", "A-readonly"]);
    expect(await folderNames(owner.token)).toHaveLength(5);
    await http().put("/api/customer/settings/teams", { token: owner.token, body: { accessResourcesWithoutTeam: true } });
    await eventually(() => folderNames(restricted.token), (n) => n.includes("none"), "without-team visible again");
  });

  it("'userFullAccessIfNotInTeam': a restricted user in no team sees everything, or nothing team-held when false", async () => {
    const loner = await createUser(http(), admin, customerId, "VIEWER", { restricted: true });
    expect(await eventually(() => folderNames(loner.token), (n) => n.length === 5, "full access")).toContain("B");
    await http().put("/api/customer/settings/teams", { token: owner.token, body: { userFullAccessIfNotInTeam: false } });
    expect(await eventually(() => folderNames(loner.token), (n) => n.length === 2, "no team, no access")).toEqual(["(root)", "none"]);
    await http().put("/api/customer/settings/teams", { token: owner.token, body: { userFullAccessIfNotInTeam: true } });
  });
});

describe("cross-service team views", () => {
  it("GET /api/team/{resourceType}Assignments answers from the owning service (media, core)", async () => {
    const res = await http().get("/api/team/fileFolderAssignments", { token: owner.token, query: { teamId: teamA } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((a: { id: string }) => a.id).sort()).toEqual([folders.A, folders["A-readonly"]].sort());
    expect(res.body.find((a: { id: string }) => a.id === folders["A-readonly"]).readOnly).toBe(true);
    const users = await http().get("/api/team/userAssignments", { token: owner.token, query: { teamId: teamA } });
    expect(users.body).toHaveLength(1);
    expect((await http().get("/api/team/deviceAssignments", { token: owner.token, query: { teamId: teamA } })).status).toBe(501);
    const unknown = await http().get("/api/team/spaceshipAssignments", { token: owner.token, query: { teamId: teamA } });
    expect([unknown.status, unknown.body.key]).toEqual([400, "team.error.unknownResourceType"]);
  });

  it("GET /api/team/{resourceType}/{resourceId}/assignments and PUT /api/team/update{ResourceType}Assignments", async () => {
    const put = await http().put("/api/team/updateFileFolderAssignments", {
      token: owner.token,
      query: { teamId: teamB },
      body: { resourcesToAdd: [{ id: folders.none, readOnly: true }], resourceIdsToRemove: [] },
    });
    expect(put.status, put.text).toBeLessThan(300);
    const teams = await http().get(`/api/team/fileFolder/${folders.none}/assignments`, { token: owner.token });
    expect(teams.body).toEqual([{ teamId: teamB, readOnly: true }]);
    await http().put("/api/team/updateFileFolderAssignments", { token: owner.token, query: { teamId: teamB }, body: { resourceIdsToRemove: [folders.none] } });
    expect((await http().get(`/api/team/fileFolder/${folders.none}/assignments`, { token: owner.token })).body).toEqual([]);
    const bad = await http().put("/api/team/updateFileFolderAssignments", { token: owner.token, query: { teamId: teamB }, body: { resourcesToAdd: [{ id: "00000000-0000-7000-8000-000000000000" }] } });
    expect(bad.status).toBe(404);
  });

  it("create with 'teamIds=<id>:<readOnly>' checks the teams; users take teamIds on create", async () => {
    const unknown = await http().post("/api/fileFolder/", { token: owner.token, query: { parentId: root, name: "x", teamIds: "00000000-0000-7000-8000-000000000001:false" } });
    expect([unknown.status, unknown.body.key]).toEqual([400, "team.error.notFound"]);
    const malformed = await http().post("/api/user/", { token: owner.token, query: { customerId, teamIds: `${teamA}:maybe` }, body: { email: "m@x.test", role: "VIEWER", password: "password-123" } });
    expect([malformed.status, malformed.body.key]).toEqual([400, "team.error.invalidTeamIds"]);
    const created = await http().post("/api/user/", { token: owner.token, query: { customerId, teamIds: `${teamB}` }, body: { email: "member-b@x.test", role: "VIEWER", password: "password-123" } });
    expect(created.status, created.text).toBe(200);
    const members = await http().get("/api/team/userAssignments", { token: owner.token, query: { teamId: teamB } });
    expect(members.body.map((m: { id: string }) => m.id)).toContain(created.body.id);
  });
});

describe("team deletion", () => {
  it("a deleted team leaves no assignment behind in media (team.deleted)", async () => {
    const media = platform.knexOf("media");
    expect(Number((await media("team_assignment").where({ team_id: teamB }).count({ n: "*" }))[0].n)).toBeGreaterThan(0);
    const res = await http().delete(`/api/team/${teamB}`, { token: owner.token });
    expect(res.status, res.text).toBeLessThan(300);
    await eventually(async () => Number((await media("team_assignment").where({ team_id: teamB }).count({ n: "*" }))[0].n), (n) => n === 0, "media assignments of B");
    expect(Number((await media("file_folder").whereRaw("team_ids @> array[?::uuid]", [teamB]).count({ n: "*" }))[0].n)).toBe(0);
    expect(Number((await platform.knexOf("core")("team_assignment").where({ team_id: teamB }).count({ n: "*" }))[0].n)).toBe(0);
    // The folder once held by B is a folder without team now.
    expect(await folderNames(owner.token, { search: "teamAssignments=NULL" })).toContain("B");
    expect((await http().get("/api/team/fileFolderAssignments", { token: owner.token, query: { teamId: teamB } })).status).toBe(404);
  });
});
