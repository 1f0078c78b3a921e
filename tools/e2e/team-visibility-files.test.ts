// Issue 4 "Done when": a restricted user in team A never sees team B's
// resources in a list, a count, a tag map or a summary — here for media files,
// uploaded through the gateway with `teamIds=id:readOnly`, and the tag map that
// core keeps from media's tag events.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform, eventually } from "@signage/testing";

const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

let platform: TestPlatform;
let owner: TenantUser;
let restricted: TenantUser;
let teamA: string;
let teamB: string;

async function upload(name: string, teamIds: string, tags: string) {
  const form = new FormData();
  form.append("files[]", new Blob([PNG_1X1], { type: "image/png" }), name);
  const res = await platform.http.post("/api/file", { token: owner.token, body: form, query: { teamIds, tags } });
  expect(res.status, res.text).toBe(200);
}


beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "team_files" });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const customerId = (await createCustomer(platform.http, admin)).id;
  owner = await createUser(platform.http, admin, customerId, "OWNER");
  restricted = await createUser(platform.http, admin, customerId, "EDITOR", { restricted: true });
  teamA = (await platform.http.post("/api/team/", { token: owner.token, body: { name: "A" } })).body.id;
  teamB = (await platform.http.post("/api/team/", { token: owner.token, body: { name: "B" } })).body.id;
  await platform.http.post("/api/user/updateTeamAssignments", { token: owner.token, query: { email: restricted.email }, body: { assignToTeams: [{ teamId: teamA, readOnly: false }] } });
  // Root folder arrives with customer.created; uploads go there.
  await eventually(() => platform.http.get("/api/v2/fileFolder", { token: owner.token, query: { search: "parentId=NULL" } }), (r) => r.body.content?.length === 1, "root folder");
  await upload("a.png", `${teamA}:false`, "shared,onlyA");
  await upload("b.png", `${teamB}:false`, "shared,onlyB");
}, 60_000);
afterAll(() => platform?.close());

describe("team visibility of files for a restricted user in team A", () => {
  it("list and count: team B's file is neither listed nor counted", async () => {
    const mine = await eventually(() => platform.http.get("/api/v2/file", { token: restricted.token }), (r) => r.body.totalElements === 1, "restricted list");
    expect(mine.body.content.map((f: { name: string }) => f.name)).toEqual(["a.png"]);
    const all = await platform.http.get("/api/v2/file", { token: owner.token });
    expect(all.body.totalElements).toBe(2);
    const b = await platform.http.get("/api/v2/file", { token: restricted.token, query: { search: `teamAssignments.team.id=${teamB}` } });
    expect(b.body.totalElements).toBe(0);
  });

  it("summary view: only team A's file", async () => {
    const res = await platform.http.get("/api/v2/file/view/summary", { token: restricted.token, query: { size: 50 } });
    expect(res.status, res.text).toBe(200);
    const text = JSON.stringify(res.body);
    expect(text).toContain("a.png");
    expect(text).not.toContain("b.png");
  });

  it("tag map: tags carried only by team B's file are absent, shared tags count only visible files", async () => {
    const owners = await eventually(() => platform.http.get("/api/tag", { token: owner.token, query: { select: "fileTags" } }), (r) => r.body.fileTags?.shared?.count === 2, "owner tag map");
    expect(owners.body.fileTags.onlyB.count).toBe(1);
    const res = await platform.http.get("/api/tag", { token: restricted.token, query: { select: "fileTags" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.fileTags.shared.count).toBe(1);
    expect(res.body.fileTags.onlyA.count).toBe(1);
    expect(res.body.fileTags.onlyB).toBeUndefined();
  });
});

describe("isFileAndFolderCreationEnabledInRootForTeamUsers", () => {
  it("when false, a team user cannot create folders or upload files in the root folder; inside a team folder it can; an unrestricted OWNER still can", async () => {
    const root = (await platform.http.get("/api/v2/fileFolder", { token: owner.token, query: { search: "parentId=NULL" } })).body.content[0].id;
    const teamFolder = await platform.http.post("/api/fileFolder/", { token: owner.token, query: { parentId: root, name: "team A folder", teamIds: `${teamA}:false` } });
    expect(teamFolder.status, teamFolder.text).toBe(200);
    const settings = await platform.http.put("/api/customer/settings/teams", { token: owner.token, body: { isFileAndFolderCreationEnabledInRootForTeamUsers: false } });
    expect(settings.status, settings.text).toBe(200);
    const refused = await eventually(
      () => platform.http.post("/api/fileFolder/", { token: restricted.token, query: { parentId: root, name: "in root" } }),
      (r) => r.status === 403,
      "root creation refused",
    );
    expect(refused.body.key).toBe("team.error.rootCreationDisabled");
    const form = new FormData();
    form.append("files[]", new Blob([PNG_1X1], { type: "image/png" }), "root.png");
    const upload = await platform.http.post("/api/file", { token: restricted.token, body: form });
    expect(upload.status, upload.text).toBe(403);
    const inside = await platform.http.post("/api/fileFolder/", { token: restricted.token, query: { parentId: teamFolder.body.id, name: "inside" } });
    expect(inside.status, inside.text).toBe(200);
    const byOwner = await platform.http.post("/api/fileFolder/", { token: owner.token, query: { parentId: root, name: "owner in root" } });
    expect(byOwner.status, byOwner.text).toBe(200);
  });
});

