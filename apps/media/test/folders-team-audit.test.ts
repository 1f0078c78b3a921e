// Team assignments of files and folders, over HTTP through the gateway (document 2
// "Teams on resources", "User": restricted = "sees only team-assigned resources";
// document 1 "Update file team assignments", "Update folder team assignments",
// "Delete folder", "Delete many files and folders").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, eventually, type TenantUser } from "@signage/testing";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let t: Tenant;
let restricted: TenantUser;
let teamA: string;
let teamB: string;

async function team(name: string): Promise<string> {
  const res = await lib.http.post("/api/team/", { token: t.owner.token, body: { name } });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

const assignmentsOf = async (resourceId: string) =>
  (await lib.knex("team_assignment").where({ resource_id: resourceId }).select("team_id", "read_only")).map((r: { team_id: string; read_only: boolean }) => [r.team_id, r.read_only]);

async function assignFile(fileId: string, teamId: string, readOnly: boolean) {
  const res = await lib.http.post("/api/file/updateTeamAssignments", { token: t.owner.token, query: { fileId }, body: { assignToTeams: [{ teamId, readOnly }] } });
  expect(res.status, res.text).toBeLessThan(300);
}

beforeAll(async () => {
  lib = await startLibrary("media_folders_team_audit");
  t = await lib.tenant();
  restricted = await createUser(lib.http, lib.admin, t.id, "EDITOR", { restricted: true });
  [teamA, teamB] = await Promise.all([team("A"), team("B")]);
  const member = await lib.http.post("/api/user/updateTeamAssignments", { token: t.owner.token, query: { email: restricted.email }, body: { assignToTeams: [{ teamId: teamA, readOnly: false }] } });
  expect(member.status, member.text).toBeLessThan(300);
}, 60_000);
afterAll(() => lib?.close());

describe("'Modify with POST `/api/{resource}/updateTeamAssignments?{idParam}=<id>` (OWNER), body `assignToTeams` [{teamId, readOnly}], `removeFromTeamIds` [string]': a team named twice", () => {
  // It answered 500 (the upsert touched one row twice). A contradictory body is 400, as core answers
  // for the bodies it serves, and nothing is written.
  it.each([
    [{ assignToTeams: [{ teamId: "A", readOnly: true }, { teamId: "A", readOnly: false }] }, "team.error.duplicateAssignment"],
    [{ assignToTeams: [{ teamId: "A", readOnly: true }, { teamId: "A", readOnly: true }] }, "team.error.duplicateAssignment"],
    [{ assignToTeams: [{ teamId: "A", readOnly: false }], removeFromTeamIds: ["A"] }, "team.error.conflictingAssignment"],
  ])("for a file and a folder, %j is 400 %s and writes nothing", async (template, key) => {
    const body = JSON.parse(JSON.stringify(template).replaceAll('"A"', JSON.stringify(teamA)));
    const file = await lib.file(t);
    const folder = await lib.folder(t, t.rootId, "dup-teams");
    for (const [path, query, id] of [
      ["/api/file/updateTeamAssignments", { fileId: file.id }, file.id],
      ["/api/fileFolder/updateTeamAssignments", { fileFolderId: folder.id }, folder.id],
    ] as const) {
      const res = await lib.http.post(path, { token: t.owner.token, query, body });
      expect([res.status, res.body.status, res.body.error, res.body.key, res.body.details.ids], `${path} ${res.text}`).toEqual([400, 400, "Bad Request", key, [teamA]]);
      expect(await assignmentsOf(id)).toEqual([]);
    }
  });

  it("each team once still works", async () => {
    const file = await lib.file(t);
    const res = await lib.http.post("/api/file/updateTeamAssignments", { token: t.owner.token, query: { fileId: file.id }, body: { assignToTeams: [{ teamId: teamA, readOnly: true }, { teamId: teamB, readOnly: false }] } });
    expect(res.status, res.text).toBeLessThan(300);
    expect((await assignmentsOf(file.id)).sort()).toEqual([[teamA, true], [teamB, false]].sort());
  });
});

describe("'Folder deletion removes every contained folder and file recursively': not past the caller's read-only team access", () => {
  it("a restricted team-A EDITOR may not delete (DELETE or removeBatch) a team-A writable folder holding a file team A reads only: 403 team.error.readOnly, nothing deleted; once writable, the delete goes through", async () => {
    const folder = await lib.folder(t, t.rootId, "rw-with-ro-inside");
    const assign = await lib.http.post("/api/fileFolder/updateTeamAssignments", { token: t.owner.token, query: { fileFolderId: folder.id }, body: { assignToTeams: [{ teamId: teamA, readOnly: false }] } });
    expect(assign.status, assign.text).toBeLessThan(300);
    const sub = await lib.folder(t, folder.id, "sub");
    const readOnly = await lib.file(t, { name: "tree-ro.png", fileFolderId: sub.id });
    await assignFile(readOnly.id, teamA, true);
    await eventually(
      () => lib.http.get("/api/v2/file", { token: restricted.token, query: { search: `id=${readOnly.id}`, select: "readOnly" } }),
      (r) => r.body.content?.[0]?.readOnly === true,
      "team membership replicated",
    );

    const single = await lib.http.delete(`/api/fileFolder/${folder.id}`, { token: restricted.token });
    expect([single.status, single.body.key, single.body.details]).toEqual([403, "team.error.readOnly", { resourceType: "fileFolder", id: folder.id }]);
    const batch = await lib.http.post("/api/fileFolder/removeBatch", { token: restricted.token, body: { folderIds: [folder.id] } });
    expect([batch.status, batch.body.key]).toEqual([403, "team.error.readOnly"]);
    expect(await lib.knex("file").where({ id: readOnly.id }).first()).toBeTruthy();
    expect(await lib.knex("file_folder").whereIn("id", [folder.id, sub.id])).toHaveLength(2);

    // A file of another team (invisible to the caller) blocks the delete alike, without being named.
    await assignFile(readOnly.id, teamA, false);
    const hidden = await lib.file(t, { name: "tree-hidden.png", fileFolderId: sub.id });
    await assignFile(hidden.id, teamB, false);
    const blocked = await lib.http.delete(`/api/fileFolder/${folder.id}`, { token: restricted.token });
    expect([blocked.status, blocked.body.key, JSON.stringify(blocked.body).includes(hidden.id)]).toEqual([403, "team.error.readOnly", false]);

    await lib.http.post("/api/file/updateTeamAssignments", { token: t.owner.token, query: { fileId: hidden.id }, body: { assignToTeams: [{ teamId: teamA, readOnly: false }], removeFromTeamIds: [teamB] } });
    const ok = await lib.http.delete(`/api/fileFolder/${folder.id}`, { token: restricted.token });
    expect(ok.status, ok.text).toBeLessThan(300);
    expect(await lib.knex("file").whereIn("id", [readOnly.id, hidden.id])).toHaveLength(0);
  });

  it("an OWNER (full team access) deletes the same kind of folder", async () => {
    const folder = await lib.folder(t, t.rootId, "owner-deletes");
    const file = await lib.file(t, { name: "owner-ro.png", fileFolderId: folder.id });
    await assignFile(file.id, teamA, true);
    const res = await lib.http.delete(`/api/fileFolder/${folder.id}`, { token: t.owner.token });
    expect(res.status, res.text).toBeLessThan(300);
    expect(await lib.knex("file").where({ id: file.id }).first()).toBeUndefined();
  });
});

describe("GET /api/team/fileAssignments?teamId= of another team: 'restricted = sees only team-assigned resources'", () => {
  // Core asks the owner (media) for a team's resources on behalf of the caller. A restricted user
  // who is not in that team learns only the files its own teams show; core used to answer [] for
  // every media type to such a caller (the owner did not filter).
  it("a restricted team-A user sees, of team B's files, those team A shares; team members and the OWNER see them all", async () => {
    const hidden = await lib.file(t, { name: "b-only.png" });
    const shared = await lib.file(t, { name: "b-and-a.png" });
    await assignFile(hidden.id, teamB, false);
    await assignFile(shared.id, teamB, false);
    await assignFile(shared.id, teamA, true);
    const ofB = (token: string) => lib.http.get("/api/team/fileAssignments", { token, query: { teamId: teamB } });
    const ids = (res: { body: Array<{ id: string }> }) => res.body.map((a) => a.id).filter((id) => id === hidden.id || id === shared.id).sort();
    await eventually(() => ofB(restricted.token), (r) => r.status === 200 && ids(r).includes(shared.id), "team B's files for the restricted user");
    const seen = await ofB(restricted.token);
    expect(ids(seen)).toEqual([shared.id]);
    expect(ids(await ofB(t.owner.token))).toEqual([hidden.id, shared.id].sort());
  });
});

describe("'restricted = sees only team-assigned resources': what a folder and a file tell about the files they hold or resemble", () => {
  // A restricted user saw a folder's fileCount and firstFileThumbnail (the thumbnail of a file its
  // teams hide, downloadable) and a file's duplicateDetails (id, name, folder of hidden files)
  // counted over every file, where its own file list showed fewer.
  it("a team-A user: fileCount and firstFileThumbnail count only team A's files (and those without a team), duplicateDetails lists only them; an owner still sees all", async () => {
    const folder = await lib.folder(t, t.rootId, "mixed-teams");
    const crcCheckSum = `c${Math.random().toString(16).slice(2, 10)}`;
    const inFolder = (name: string) => ({ name, fileFolderId: folder.id, crcCheckSum, thumbnailKey: `thumbnails/${t.id}/${name}-marker.png` });
    // By name, the hidden file comes first: the folder's first thumbnail was its.
    const hidden = await lib.file(t, inFolder("a-hidden"));
    const visible = await lib.file(t, inFolder("b-visible"));
    const alsoVisible = await lib.file(t, inFolder("c-visible"));
    await assignFile(hidden.id, teamB, false);
    await assignFile(visible.id, teamA, false);
    await assignFile(alsoVisible.id, teamA, false);

    const folderAs = (token: string) => lib.http.get("/api/v2/fileFolder", { token, query: { search: `id=${folder.id}`, select: "name,fileCount,firstFileThumbnail" } });
    const duplicatesAs = (token: string) => lib.http.get("/api/v2/file", { token, query: { search: `id=${visible.id}`, select: "name,duplicateDetails" } });
    await eventually(() => duplicatesAs(restricted.token), (r) => r.body.content?.length === 1, "team membership replicated");

    // A blob URL names its key base64url-encoded: /storage/v1/blobs/<key>?expires=...
    const keyOf = (url: string) => Buffer.from(new URL(url, "http://x").pathname.split("/").at(-1)!, "base64url").toString();
    const asOwner = (await folderAs(t.owner.token)).body.content[0];
    expect([asOwner.fileCount, keyOf(asOwner.firstFileThumbnail)]).toEqual([3, `thumbnails/${t.id}/a-hidden-marker.png`]);
    const asRestricted = (await folderAs(restricted.token)).body.content[0];
    expect([asRestricted.fileCount, keyOf(asRestricted.firstFileThumbnail)]).toEqual([2, `thumbnails/${t.id}/b-visible-marker.png`]);

    const byId = (files: { id: string }[]) => files.map((f) => f.id).sort();
    const ownerDuplicates = (await duplicatesAs(t.owner.token)).body.content[0].duplicateDetails;
    expect([ownerDuplicates.count, byId(ownerDuplicates.files)]).toEqual([2, [hidden.id, alsoVisible.id].sort()]);
    const restrictedDuplicates = (await duplicatesAs(restricted.token)).body.content[0].duplicateDetails;
    expect(restrictedDuplicates).toEqual({ count: 1, files: [{ id: alsoVisible.id, name: "c-visible", fileFolderId: folder.id }] });

    // Nor can search or sort on them tell the restricted user more than the values do: for it they are
    // filled in after the query, so neither (400). With full team access they still search and sort.
    for (const query of [{ search: `id=${folder.id},fileCount=3` }, { search: "firstFileThumbnail:a-hidden" }, { sort: "fileCount,desc" }]) {
      const res = await lib.http.get("/api/v2/fileFolder", { token: restricted.token, query });
      expect([res.status, res.body.key], JSON.stringify(query)).toEqual([400, "search" in query ? "search.error.invalid" : "sort.error.invalid"]);
      expect((await lib.http.get("/api/v2/fileFolder", { token: t.owner.token, query })).status, `owner ${JSON.stringify(query)}`).toBe(200);
    }
    const byOwner = await lib.http.get("/api/v2/fileFolder", { token: t.owner.token, query: { search: `id=${folder.id},fileCount=3`, select: "fileCount" } });
    expect(byOwner.body.content).toEqual([{ id: folder.id, fileCount: 3 }]);
    const duplicateSearch = { search: `id=${visible.id},duplicateDetails.count=2` };
    const bySearch = await lib.http.get("/api/v2/file", { token: restricted.token, query: duplicateSearch });
    expect([bySearch.status, bySearch.body.key]).toEqual([400, "search.error.invalid"]);
    expect((await lib.http.get("/api/v2/file", { token: t.owner.token, query: duplicateSearch })).body.totalElements).toBe(1);

    // The breadcrumb renders its folders as the list does.
    const breadcrumb = await lib.http.get("/api/v2/fileFolder/breadcrumb", { token: restricted.token, query: { folderId: folder.id } });
    expect(breadcrumb.status, breadcrumb.text).toBe(200);
    expect(breadcrumb.body.fileFolders.at(-1)).toMatchObject({ id: folder.id, fileCount: 2 });

  });
});
