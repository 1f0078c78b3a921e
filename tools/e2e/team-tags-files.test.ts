// Core's per-team tag map (GET /api/tag, document 2 tags / team visibility)
// follows every change of a file's teams, not only its tag edits: media
// re-announces `tags.changed` (full tags + current team ids) in the transaction
// of the assignment update, the team-side update, replace MERGE / OVERWRITE and
// the team.deleted cleanup; uploads with teamIds / inheritParentTeams too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createCustomer, createUser, eventually, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";

const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const WAIT_MS = 10_000;

let platform: TestPlatform;
let owner: TenantUser;
let inA: TenantUser;
let inB: TenantUser;
let teamA: string;
let teamB: string;
let root: string;

async function createTeam(name: string): Promise<string> {
  const res = await platform.http.post("/api/team/", { token: owner.token, body: { name } });
  expectOk(res);
  return res.body.id;
}

async function restrictedIn(admin: string, customerId: number, teamId: string): Promise<TenantUser> {
  const user = await createUser(platform.http, admin, customerId, "EDITOR", { restricted: true });
  const res = await platform.http.post("/api/user/updateTeamAssignments", { token: owner.token, query: { email: user.email }, body: { assignToTeams: [{ teamId, readOnly: false }] } });
  expectOk(res);
  return user;
}

async function upload(name: string, query: Record<string, string>): Promise<string> {
  const form = new FormData();
  form.append("files[]", new Blob([PNG_1X1], { type: "image/png" }), name);
  const res = await platform.http.post("/api/file", { token: owner.token, body: form, query: { parentId: root, ...query } });
  expectOk(res);
  return res.body[0].id;
}

/** Assignment routes answer 204, the others 200. */
function expectOk(res: { status: number; text: string }): void {
  expect(res.status >= 200 && res.status < 300, `${res.status} ${res.text}`).toBe(true);
}

type TagMap = Record<string, { count: number } | undefined>;

async function fileTagsOf(user: TenantUser): Promise<TagMap> {
  const res = await platform.http.get("/api/tag", { token: user.token, query: { select: "fileTags" } });
  expectOk(res);
  return res.body.fileTags ?? {};
}

/** Waits until team A's member and team B's member count `tag` as expected (1 = the file, 0 = absent). */
async function expectCounts(tag: string, counts: { a: number; b: number }, what: string): Promise<void> {
  const seen = await eventually(
    async () => {
      const [a, b] = [await fileTagsOf(inA), await fileTagsOf(inB)];
      return { a: a[tag]?.count ?? 0, b: b[tag]?.count ?? 0 };
    },
    (v) => v.a === counts.a && v.b === counts.b,
    what,
    WAIT_MS,
  );
  expect(seen).toEqual(counts);
}

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "team_tags" });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const customerId = (await createCustomer(platform.http, admin)).id;
  owner = await createUser(platform.http, admin, customerId, "OWNER");
  [teamA, teamB] = [await createTeam("A"), await createTeam("B")];
  inA = await restrictedIn(admin, customerId, teamA);
  inB = await restrictedIn(admin, customerId, teamB);
  const roots = await eventually(() => platform.http.get("/api/v2/fileFolder", { token: owner.token, query: { search: "parentId=NULL" } }), (r) => r.body.content?.length === 1, "root folder");
  root = roots.body.content[0].id;
}, 60_000);
afterAll(() => platform?.close(), 30_000);

describe("a file's team changes reach core's tag map", () => {
  it("POST /api/file/updateTeamAssignments moves the file's tags from team A's map to team B's", async () => {
    const fileId = await upload("moving.png", { teamIds: `${teamA}:false`, tags: "tt-moving" });
    await expectCounts("tt-moving", { a: 1, b: 0 }, "uploaded into team A");
    const res = await platform.http.post("/api/file/updateTeamAssignments", {
      token: owner.token,
      query: { fileId },
      body: { assignToTeams: [{ teamId: teamB, readOnly: false }], removeFromTeamIds: [teamA] },
    });
    expectOk(res);
    await expectCounts("tt-moving", { a: 0, b: 1 }, "re-assigned to team B");
  });

  it("PUT /api/team/updateFileAssignments (team side) adds and removes the file from a team's map", async () => {
    const fileId = await upload("team-side.png", { teamIds: `${teamB}:false`, tags: "tt-team-side" });
    await expectCounts("tt-team-side", { a: 0, b: 1 }, "uploaded into team B");
    const add = await platform.http.put("/api/team/updateFileAssignments", { token: owner.token, query: { teamId: teamA }, body: { resourcesToAdd: [{ id: fileId, readOnly: true }] } });
    expectOk(add);
    await expectCounts("tt-team-side", { a: 1, b: 1 }, "added to team A");
    const remove = await platform.http.put("/api/team/updateFileAssignments", { token: owner.token, query: { teamId: teamB }, body: { resourceIdsToRemove: [fileId] } });
    expectOk(remove);
    await expectCounts("tt-team-side", { a: 1, b: 0 }, "removed from team B");
  });

  it("replaceFileReference: OVERWRITE gives the source file the replaced file's teams, MERGE both", async () => {
    const overwritten = await upload("overwrite-src.png", { teamIds: `${teamA}:false`, tags: "tt-overwrite" });
    const merged = await upload("merge-src.png", { teamIds: `${teamA}:false`, tags: "tt-merge" });
    const target = await upload("target.png", { teamIds: `${teamB}:false` });
    await expectCounts("tt-overwrite", { a: 1, b: 0 }, "overwrite source in team A");
    await expectCounts("tt-merge", { a: 1, b: 0 }, "merge source in team A");
    const overwrite = await platform.http.put("/api/file/replaceFileReference", { token: owner.token, query: { fileIdToReplace: target, sourceFileId: overwritten, teamAssignmentMode: "OVERWRITE" } });
    expectOk(overwrite);
    await expectCounts("tt-overwrite", { a: 0, b: 1 }, "OVERWRITE: team B only");
    const merge = await platform.http.put("/api/file/replaceFileReference", { token: owner.token, query: { fileIdToReplace: target, sourceFileId: merged, teamAssignmentMode: "MERGE" } });
    expectOk(merge);
    await expectCounts("tt-merge", { a: 1, b: 1 }, "MERGE: teams A and B");
  });

  it("team.deleted: a file left without team counts for team B's member (resources without team are visible by default)", async () => {
    const teamC = await createTeam("C");
    await upload("orphan.png", { teamIds: `${teamC}:false`, tags: "tt-orphan" });
    await expectCounts("tt-orphan", { a: 0, b: 0 }, "in team C only");
    const owners = await eventually(() => fileTagsOf(owner), (t) => t["tt-orphan"]?.count === 1, "owner sees team C's file", WAIT_MS);
    expect(owners["tt-orphan"]?.count).toBe(1);
    const res = await platform.http.delete(`/api/team/${teamC}`, { token: owner.token });
    expectOk(res);
    await expectCounts("tt-orphan", { a: 1, b: 1 }, "team C deleted: file without team");
  });

  it("upload with inheritParentTeams counts the file for the parent folder's team", async () => {
    const folder = await platform.http.post("/api/fileFolder/", { token: owner.token, query: { parentId: root, name: "team A tags", teamIds: `${teamA}:false` } });
    expectOk(folder);
    const form = new FormData();
    form.append("files[]", new Blob([PNG_1X1], { type: "image/png" }), "inherited.png");
    const res = await platform.http.post("/api/file", { token: owner.token, body: form, query: { parentId: folder.body.id, inheritParentTeams: "true", tags: "tt-inherited" } });
    expectOk(res);
    await expectCounts("tt-inherited", { a: 1, b: 0 }, "inherited team A");
  });
});
