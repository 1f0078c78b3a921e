// Quick filters as a team-assignable resource (document 2 "Team": "Resource
// types assignable to teams: ... quickFilter"; "Teams on resources").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreModule } from "@signage/core";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";

let platform: TestPlatform;
let owner: TenantUser;
let restricted: TenantUser;
let teamA: string;
let teamB: string;
let n = 0;

async function createFilter(teamIds?: string) {
  const res = await platform.http.post("/api/quickFilter/", {
    token: owner.token,
    query: { teamIds },
    body: { name: `filter ${++n}`, filteredEntityType: "FILE", criteria: { name: "poster" } },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
}

async function visibleTo(token: string): Promise<string[]> {
  // Team facts reach the visibility replica through the outbox; wait for them to settle.
  const res = await platform.http.get("/api/v2/quickFilter", { token, query: { size: 100 } });
  expect(res.status, res.text).toBe(200);
  return (res.body.content as { id: string }[]).map((f) => f.id);
}

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], prefix: "qf_teams" });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const customerId = (await createCustomer(platform.http, admin)).id;
  owner = await createUser(platform.http, admin, customerId, "OWNER");
  restricted = await createUser(platform.http, admin, customerId, "EDITOR", { restricted: true });
  teamA = (await platform.http.post("/api/team/", { token: owner.token, body: { name: "A" } })).body.id;
  teamB = (await platform.http.post("/api/team/", { token: owner.token, body: { name: "B" } })).body.id;
  const res = await platform.http.post("/api/user/updateTeamAssignments", {
    token: owner.token,
    query: { email: restricted.email },
    body: { assignToTeams: [{ teamId: teamA, readOnly: false }] },
  });
  expect(res.status, res.text).toBeLessThan(300);
}, 60_000);
afterAll(() => platform?.close());

describe("quick filters and teams", () => {
  it("'teamIds=id:readOnly' on create; a restricted user in team A never sees team B's quick filters", async () => {
    const a = await createFilter(`${teamA}:false`);
    const b = await createFilter(`${teamB}:false`);
    const ids = await visibleTo(restricted.token);
    expect(ids).toContain(a);
    expect(ids).not.toContain(b);
    expect(await visibleTo(owner.token)).toEqual(expect.arrayContaining([a, b]));
    const count = await platform.http.get("/api/v2/quickFilter", { token: restricted.token, query: { search: `id=${b}` } });
    expect(count.body.totalElements).toBe(0);
  });

  it("a read-only assignment refuses writes (403 team.error.readOnly); a hidden filter answers 404", async () => {
    const readOnly = await createFilter(`${teamA}:true`);
    const hidden = await createFilter(`${teamB}:false`);
    const update = await platform.http.put("/api/quickFilter/", { token: restricted.token, query: { quickFilterId: readOnly }, body: { name: "renamed" } });
    expect(update.status, update.text).toBe(403);
    expect(update.body.key).toBe("team.error.readOnly");
    const del = await platform.http.delete("/api/quickFilter/", { token: restricted.token, query: { quickFilterId: hidden } });
    expect(del.status, del.text).toBe(404);
  });

  it("unknown team ids on create are refused with 400 before anything is written", async () => {
    const res = await platform.http.post("/api/quickFilter/", {
      token: owner.token,
      query: { teamIds: "00000000-0000-7000-8000-000000000000:false" },
      body: { name: "orphan", filteredEntityType: "FILE", criteria: {} },
    });
    expect(res.status, res.text).toBe(400);
    const list = await platform.http.get("/api/v2/quickFilter", { token: owner.token, query: { search: "name=orphan" } });
    expect(list.body.totalElements).toBe(0);
  });

  it("assignments are changed through POST /api/quickFilter/updateTeamAssignments and shown by the team views", async () => {
    const id = await createFilter();
    const res = await platform.http.post("/api/quickFilter/updateTeamAssignments", {
      token: owner.token,
      query: { quickFilterId: id },
      body: { assignToTeams: [{ teamId: teamB, readOnly: true }] },
    });
    expect(res.status, res.text).toBeLessThan(300);
    const teams = await platform.http.get(`/api/team/quickFilter/${id}/assignments`, { token: owner.token });
    expect(teams.status, teams.text).toBe(200);
    expect(JSON.stringify(teams.body)).toContain(teamB);
    const team = await platform.http.get("/api/team/", { token: owner.token, query: { search: `id=${teamB}`, includeTeamResourceNumber: true } });
    expect(team.body.content[0].teamQuickFilterNumber).toBeGreaterThanOrEqual(1);
  });
});
