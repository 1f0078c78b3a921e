// Findings of a black-box audit of core's access model (seed 001: "Teams on resources",
// "Team", "User", "Quick filter", "Teams, tags, users, quick filters"), driven through the
// real gateway over HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { coreModule } from "../src/module.js";
import { errorBody } from "./error-body.js";

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], prefix: "core_audit_teams_test" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(() => platform?.close());


async function team(token: string, name: string): Promise<string> {
  const res = await platform.http.post("/api/team/", { token, body: { name } });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

/** A customer with an OWNER and an EDITOR. */
async function tenantWithEditor(name: string) {
  const { id: customerId } = await createCustomer(platform.http, admin, { name });
  return { customerId, owner: await createUser(platform.http, admin, customerId, "OWNER"), editor: await createUser(platform.http, admin, customerId, "EDITOR") };
}

async function userId(token: string, email: string): Promise<string> {
  const res = await platform.http.get("/api/v2/user", { token, query: { search: `email=${email}`, select: "id,email" } });
  expect(res.status, res.text).toBe(200);
  return res.body.content[0].id;
}

describe("assignment bodies naming an id twice", () => {
  // Seed "Teams on resources": "Modify with POST /api/{resource}/updateTeamAssignments?{idParam}=<id>
  // (OWNER), body assignToTeams [{teamId, readOnly}], removeFromTeamIds [string]" and "Assign from
  // team side | PUT /api/team/update{ResourceType}Assignments?teamId=<id> | resourcesToAdd [{id,
  // readOnly}], resourceIdsToRemove [string]". An id listed twice among the additions answered 500
  // (the upsert touched one row twice); it is a contradictory request: 400, and nothing is written.
  it("400 team.error.duplicateAssignment / conflictingAssignment on all three paths; no partial write", async () => {
    const { owner, editor } = await tenantWithEditor("Audit Teams Dup");
    const red = await team(owner.token, "Red");
    const blue = await team(owner.token, "Blue");
    const editorId = await userId(owner.token, editor.email);

    const teamSide = [
      [{ resourcesToAdd: [{ id: editorId, readOnly: true }, { id: editorId, readOnly: false }] }, "team.error.duplicateAssignment"],
      [{ resourcesToAdd: [{ id: editorId, readOnly: false }], resourceIdsToRemove: [editorId] }, "team.error.conflictingAssignment"],
    ] as const;
    for (const [body, key] of teamSide) {
      const res = await platform.http.put("/api/team/updateUserAssignments", { token: owner.token, query: { teamId: red }, body });
      expect([res.status, res.body], JSON.stringify(body)).toEqual([400, errorBody(400, key)]);
    }
    const members = await platform.http.get("/api/team/userAssignments", { token: owner.token, query: { teamId: red } });
    expect(members.body).toEqual([]);

    const userSide = [
      [{ assignToTeams: [{ teamId: blue, readOnly: false }, { teamId: red, readOnly: true }, { teamId: red, readOnly: false }] }, "team.error.duplicateAssignment"],
      [{ assignToTeams: [{ teamId: red, readOnly: false }], removeFromTeamIds: [red] }, "team.error.conflictingAssignment"],
    ] as const;
    for (const [body, key] of userSide) {
      const res = await platform.http.post("/api/user/updateTeamAssignments", { token: owner.token, query: { email: editor.email }, body });
      expect([res.status, res.body], JSON.stringify(body)).toEqual([400, errorBody(400, key)]);
    }
    const teamsOfEditor = await platform.http.get(`/api/team/user/${editorId}/assignments`, { token: owner.token });
    expect(teamsOfEditor.body).toEqual([]);

    const qf = await platform.http.post("/api/quickFilter/", { token: owner.token, body: { name: "dup", filteredEntityType: "DEVICE", criteria: { search: "name:x" } } });
    expect(qf.status, qf.text).toBe(200);
    const generic = await platform.http.post("/api/quickFilter/updateTeamAssignments", {
      token: owner.token,
      query: { quickFilterId: qf.body.id },
      body: { assignToTeams: [{ teamId: red, readOnly: true }, { teamId: red, readOnly: true }] },
    });
    expect([generic.status, generic.body]).toEqual([400, errorBody(400, "team.error.duplicateAssignment")]);
    expect((await platform.http.get(`/api/team/quickFilter/${qf.body.id}/assignments`, { token: owner.token })).body).toEqual([]);

    // Each id once still works.
    const ok = await platform.http.put("/api/team/updateUserAssignments", { token: owner.token, query: { teamId: red }, body: { resourcesToAdd: [{ id: editorId, readOnly: true }] } });
    expect(ok.status, ok.text).toBe(204);
  });
});

describe("teamIds on create", () => {
  // "teamIds=<id>:<readOnly>" names each team once: `t:true,t:false` is contradictory (400, as
  // updateTeamAssignments answers a team named twice), never silently one of the two.
  it("a team named twice is 400 team.error.duplicateAssignment and nothing is created", async () => {
    const { owner } = await tenantWithEditor("Audit Teams Twice");
    const t = await team(owner.token, "Twice");
    const res = await platform.http.post("/api/quickFilter/", { token: owner.token, query: { teamIds: `${t}:true,${t}:false` }, body: { name: "twice", filteredEntityType: "DEVICE", criteria: { search: "name:x" } } });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ key: "team.error.duplicateAssignment", details: { field: "teamIds", ids: [t] } });
    expect(await platform.knexOf("core")("quick_filter").where({ name: "twice" })).toEqual([]);
  });
});

describe("resources of a team, asked by a restricted user", () => {
  // Seed "User": "restricted = sees only team-assigned resources". GET
  // /api/team/quickFilterAssignments?teamId=<a team the caller is not in> listed the id of a quick
  // filter that GET /api/quickFilter/{id} hides from that caller (404).
  it("lists only the resources the caller's teams let it see", async () => {
    const { owner, editor } = await tenantWithEditor("Audit Teams Restricted");
    const mine = await team(owner.token, "Mine");
    const other = await team(owner.token, "Other");
    const criteria = { search: "name:x" };
    const hidden = await platform.http.post("/api/quickFilter/", { token: owner.token, query: { teamIds: `${other}:false` }, body: { name: "hidden", filteredEntityType: "DEVICE", criteria } });
    const shared = await platform.http.post("/api/quickFilter/", { token: owner.token, query: { teamIds: `${other}:false,${mine}:true` }, body: { name: "shared", filteredEntityType: "DEVICE", criteria } });
    expect([hidden.status, shared.status]).toEqual([200, 200]);
    const assigned = await platform.http.post("/api/user/updateTeamAssignments", { token: owner.token, query: { email: editor.email }, body: { assignToTeams: [{ teamId: mine, readOnly: false }] } });
    expect(assigned.status, assigned.text).toBe(204);
    const restricted = await platform.http.put("/api/user/", { token: owner.token, query: { email: editor.email }, body: { restricted: true } });
    expect(restricted.status, restricted.text).toBe(200);

    expect((await platform.http.get(`/api/quickFilter/${hidden.body.id}`, { token: editor.token })).status).toBe(404);
    const ofOther = await platform.http.get("/api/team/quickFilterAssignments", { token: editor.token, query: { teamId: other } });
    expect(ofOther.status, ofOther.text).toBe(200);
    expect(ofOther.body).toEqual([{ id: shared.body.id, readOnly: false }]);
    // Its own team: everything in it; the owner (unrestricted) still sees all of the other team.
    const ofMine = await platform.http.get("/api/team/quickFilterAssignments", { token: editor.token, query: { teamId: mine } });
    expect(ofMine.body).toEqual([{ id: shared.body.id, readOnly: true }]);
    const byOwner = await platform.http.get("/api/team/quickFilterAssignments", { token: owner.token, query: { teamId: other } });
    expect(byOwner.body.map((a: { id: string }) => a.id).sort()).toEqual([hidden.body.id, shared.body.id].sort());

    // The teams' counts ("teamUserNumber", "team{Resource}Number") count what those lists show the caller.
    const counts = async (token: string) => {
      const res = await platform.http.get("/api/team/", { token, query: { includeTeamUserNumber: true, includeTeamResourceNumber: true } });
      expect(res.status, res.text).toBe(200);
      return Object.fromEntries((res.body.content as { id: string; teamQuickFilterNumber: number; teamUserNumber: number }[]).map((t) => [t.id, [t.teamQuickFilterNumber, t.teamUserNumber]]));
    };
    expect(await counts(editor.token)).toMatchObject({ [other]: [1, 0], [mine]: [1, 1] });
    expect(await counts(owner.token)).toMatchObject({ [other]: [2, 0], [mine]: [1, 1] });
    // The counts need each team's tenant; a `select` without customerId still gets none.
    const selected = await platform.http.get("/api/team/", { token: owner.token, query: { select: "name", includeTeamUserNumber: true } });
    expect(selected.status, selected.text).toBe(200);
    for (const t of selected.body.content) expect(Object.keys(t).sort()).toEqual(["id", "name", "teamUserNumber"]);
  });
});

describe("very long names", () => {
  // Seed "Team": "name (required on create)" and "Quick filter": "name | string | required, unique per
  // customer". A 100 000 character name was stored and returned by every list; names are capped at
  // 255 characters as customer and UI profile names are.
  it("400 for team and quick filter names over 255 characters; nothing is written", async () => {
    const { id: customerId } = await createCustomer(platform.http, admin, { name: "Audit Teams Long" });
    const owner = await createUser(platform.http, admin, customerId, "OWNER");
    const long = "a".repeat(256);
    const created = await platform.http.post("/api/team/", { token: owner.token, body: { name: long } });
    expect([created.status, created.body]).toEqual([400, errorBody(400, "team.error.nameTooLong")]);
    const red = await team(owner.token, "b".repeat(255));
    const updated = await platform.http.put("/api/team/", { token: owner.token, query: { teamId: red }, body: { name: long } });
    expect([updated.status, updated.body]).toEqual([400, errorBody(400, "team.error.nameTooLong")]);
    const teams = await platform.http.get("/api/team/", { token: owner.token });
    expect(teams.body.content.map((t: { name: string }) => t.name)).toEqual(["b".repeat(255)]);

    const qf = await platform.http.post("/api/quickFilter/", { token: owner.token, body: { name: long, filteredEntityType: "FILE", criteria: {} } });
    expect([qf.status, qf.body]).toEqual([400, errorBody(400, "quickFilter.error.nameTooLong")]);
    const ok = await platform.http.post("/api/quickFilter/", { token: owner.token, body: { name: "c".repeat(255), filteredEntityType: "FILE", criteria: {} } });
    expect(ok.status, ok.text).toBe(200);
    const renamed = await platform.http.put("/api/quickFilter/", { token: owner.token, query: { quickFilterId: ok.body.id }, body: { name: long } });
    expect([renamed.status, renamed.body]).toEqual([400, errorBody(400, "quickFilter.error.nameTooLong")]);
    expect((await platform.http.get("/api/v2/quickFilter", { token: owner.token, query: { size: 1, select: "id" } })).body.totalElements).toBe(1);
  });
});

describe("what a restricted user creates stays its own to work with", () => {
  // Seed "User": "restricted = sees only team-assigned resources". A restricted EDITOR's quick filter
  // held only by another team (or by none, where the customer hides items without a team) was
  // created, and then 404 for its creator.
  it("a quick filter held only by a team the creator is not in, or read-only for it, is 400 before anything is written; with its own team it is created and readable", async () => {
    const { customerId, owner, editor } = await tenantWithEditor("Audit Teams Creator");
    const [mine, other] = [await team(owner.token, "Mine"), await team(owner.token, "Other")];
    expect((await platform.http.post("/api/user/updateTeamAssignments", { token: owner.token, query: { email: editor.email }, body: { assignToTeams: [{ teamId: mine, readOnly: false }] } })).status).toBe(204);
    expect((await platform.http.put("/api/user/", { token: owner.token, query: { email: editor.email }, body: { restricted: true } })).status).toBe(200);
    const create = (name: string, teamIds?: string) =>
      platform.http.post("/api/quickFilter/", { token: editor.token, query: teamIds ? { teamIds } : {}, body: { name, filteredEntityType: "DEVICE", criteria: { search: "name:x" } } });

    for (const [teamIds, key] of [[`${other}:false`, "team.error.notVisibleToCreator"], [`${mine}:true`, "team.error.notWritableByCreator"]] as const) {
      const res = await create(`refused-${key}`, teamIds);
      expect([res.status, res.body.key, res.body.details?.fields], res.text).toEqual([400, key, "teamIds"]);
    }
    expect(await platform.knexOf("core")("quick_filter").where({ customer_id: customerId }).whereLike("name", "refused-%")).toEqual([]);

    const own = await create("own", `${mine}:false`);
    expect(own.status, own.text).toBe(200);
    expect((await platform.http.get(`/api/quickFilter/${own.body.id}`, { token: editor.token })).status).toBe(200);
    // The owner (full team access) hands one to any team.
    const forOther = await platform.http.post("/api/quickFilter/", { token: owner.token, query: { teamIds: `${other}:false` }, body: { name: "for-other", filteredEntityType: "DEVICE", criteria: { search: "name:x" } } });
    expect(forOther.status, forOther.text).toBe(200);
  });
});

describe("a quick filter's readOnly, read one by one or listed with includeReadOnlyInfo", () => {
  // "readOnly | computed: true when used by channels or sub-channels"; "includeReadOnlyInfo (adds
  // readOnly)" for the caller's teams. GET /api/quickFilter/{id} answered the first only, the list
  // the second only, so one filter was readOnly false there and true here.
  it("is the same both ways: true when in use, or when read-only through the caller's teams", async () => {
    const { customerId, owner, editor } = await tenantWithEditor("Audit Teams ReadOnly");
    const [mine, viewing] = [await team(owner.token, "Mine"), await team(owner.token, "Viewing")];
    const assigned = await platform.http.post("/api/user/updateTeamAssignments", { token: owner.token, query: { email: editor.email }, body: { assignToTeams: [{ teamId: mine, readOnly: false }, { teamId: viewing, readOnly: true }] } });
    expect(assigned.status, assigned.text).toBe(204);
    expect((await platform.http.put("/api/user/", { token: owner.token, query: { email: editor.email }, body: { restricted: true } })).status).toBe(200);
    const create = async (name: string, teamIds: string) =>
      (await platform.http.post("/api/quickFilter/", { token: owner.token, query: { teamIds }, body: { name, filteredEntityType: "DEVICE", criteria: { search: "name:x" } } })).body.id as string;
    const filters = { free: await create("free", `${mine}:false`), used: await create("used", `${mine}:false`), viewed: await create("viewed", `${viewing}:false`) };
    await platform.knexOf("core")("quick_filter_usage").insert({ quick_filter_id: filters.used, used_by_type: "CAMPAIGN", used_by_id: "c-1", customer_id: customerId, used: true, version: 1 });

    const listed = await platform.http.get("/api/v2/quickFilter", { token: editor.token, query: { includeReadOnlyInfo: true, select: "id,name,readOnly" } });
    expect(listed.status, listed.text).toBe(200);
    const fromList = Object.fromEntries((listed.body.content as { name: string; readOnly: boolean }[]).map((f) => [f.name, f.readOnly]));
    const single = Object.fromEntries(await Promise.all(Object.entries(filters).map(async ([name, id]) => [name, (await platform.http.get(`/api/quickFilter/${id}`, { token: editor.token })).body.readOnly])));
    expect(fromList).toEqual({ free: false, used: true, viewed: true });
    expect(single).toEqual(fromList);
  });
});
