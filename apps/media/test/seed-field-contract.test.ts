// Field contract of the library's responses, over HTTP through the gateway:
// storageSize 0 is a quota of no bytes (not unlimited), single-file and folder
// responses never claim "no teams" with a false [], folders expose
// teamAssignments, the summary leaves unselected fields out, the root's
// parentId is null everywhere, and unlimited storage renders as null.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;
let teamA: string;
let teamB: string;

const http = () => env.platform.http;
const TEAMS_SELECT = "id,teamAssignments(readOnly,team(id,name))";

function upload(token: string, name: string, query: Record<string, string | boolean> = {}) {
  return http().post("/api/file", { token, body: multipart([{ name: "files[]", filename: name, type: "image/png", data: png(3, 2) }]), query });
}

async function team(name: string): Promise<string> {
  const res = await http().post("/api/team/", { token: t.owner.token, body: { name: `${name}-${randomUUID()}` } });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

/** The file's assignments as GET /api/v2/file lists them. */
async function listedTeams(id: string) {
  const res = await http().get("/api/v2/file", { token: t.owner.token, query: { search: `id=${id}`, select: TEAMS_SELECT } });
  expect(res.status, res.text).toBe(200);
  return res.body.content[0].teamAssignments;
}

const byTeam = (list: { team: { id: string } }[]) => [...list].sort((a, b) => a.team.id.localeCompare(b.team.id));

beforeAll(async () => {
  env = await startUploadPlatform("seed_field_contract", { UPLOAD_MAX_CHUNK_SIZE: String(64 * 1024) });
  t = await env.tenant();
  [teamA, teamB] = await Promise.all([team("A"), team("B")]);
}, 60_000);
afterAll(() => env?.close());

describe("'storageSize | long | bytes, null = unlimited': 0 is no space, not unlimited", { timeout: 30_000 }, () => {
  it("with storageSize 0 a small upload and a chunked init are refused with 507; statistics show 0 available", async () => {
    const none = await env.tenant();
    await env.setStorageSize(none.id, 0);
    const simple = await http().post("/api/file", { token: none.editor.token, body: multipart([{ name: "files[]", filename: "p.png", type: "image/png", data: png(3, 2) }]) });
    expect(simple.status, simple.text).toBe(507);
    expect(simple.body.key).toBe("storage.error.insufficientStorage");
    const init = await http().post("/api/v2/file/upload/init", { token: none.editor.token, body: { name: "clip.mp4", size: 20, totalChunks: 1, contentType: "video/mp4" } });
    expect(init.status, init.text).toBe(507);
    const stats = await http().get("/api/v2/file/storageStatistics", { token: none.viewer.token });
    expect(stats.body).toMatchObject({ totalAvailableStorageSize: 0, totalUsedStorageSize: 0 });
    expect(await env.platform.knexOf("media")("file").where({ customer_id: none.id })).toHaveLength(0);
  });
});

describe("an ADMIN's customerId naming no customer ('ADMIN | with: that tenant')", { timeout: 30_000 }, () => {
  it("an upload or chunked init there answers 404 customer.error.notFound and stores nothing (no root folder, no file, no session)", async () => {
    const ghost = 999_999;
    const simple = await http().post("/api/file", { token: env.admin, query: { customerId: ghost }, body: multipart([{ name: "files[]", filename: "p.png", type: "image/png", data: png(3, 2) }]) });
    expect(simple.status, simple.text).toBe(404);
    expect(simple.body).toMatchObject({ key: "customer.error.notFound", details: { id: ghost } });
    const init = await http().post("/api/v2/file/upload/init", { token: env.admin, query: { customerId: ghost }, body: { name: "clip.mp4", size: 20, totalChunks: 1, contentType: "video/mp4" } });
    expect(init.status, init.text).toBe(404);
    const media = env.platform.knexOf("media");
    expect(await media("file_folder").where({ customer_id: ghost })).toHaveLength(0);
    expect(await media("file").where({ customer_id: ghost })).toHaveLength(0);
    expect(await media("upload_session").where({ customer_id: ghost })).toHaveLength(0);
  });

  it("customer events carry storageSize, so media's replica answers uploads without asking core ('null = unlimited' included)", async () => {
    const fresh = await env.tenant();
    const tenant = () => env.platform.knexOf("media")("tenant").where({ customer_id: fresh.id });
    expect(await tenant().first("storage_size", "storage_size_known")).toEqual({ storage_size: null, storage_size_known: true });
    const upload = (name: string) => http().post("/api/file", { token: fresh.editor.token, body: multipart([{ name: "files[]", filename: name, type: "application/json", data: "x".repeat(3000) }]) });
    // The replica is what decides: a quota only the replica holds (core says unlimited) refuses.
    await tenant().update({ storage_size: 100 });
    const refused = await upload("a.json");
    expect(refused.status, refused.text).toBe(507);
    // A row whose events never carried the quota (a replica from before) asks core: unlimited.
    await tenant().update({ storage_size_known: false });
    const asked = await upload("b.json");
    expect(asked.status, asked.text).toBe(200);
  });
});

describe("file responses carry the real teamAssignments, never a false []", { timeout: 30_000 }, () => {
  it("POST /api/file with teamIds, with inheritParentTeams into a team folder, PUT /api/file/{id} and chunked complete", async () => {
    const direct = await upload(t.editor.token, "teams.png", { teamIds: `${teamA}:true,${teamB}:false` });
    expect(direct.status, direct.text).toBe(200);
    const expected = [{ readOnly: true, team: { id: teamA } }, { readOnly: false, team: { id: teamB } }].sort((a, b) => a.team.id.localeCompare(b.team.id));
    expect(byTeam(direct.body[0].teamAssignments)).toMatchObject(expected);
    expect(byTeam(direct.body[0].teamAssignments)).toEqual(byTeam(await listedTeams(direct.body[0].id)));

    const folder = await http().post("/api/fileFolder/", { token: t.editor.token, query: { parentId: t.rootId, name: `tf-${randomUUID()}`, teamIds: `${teamA}:false` } });
    expect(folder.status, folder.text).toBe(200);
    expect(folder.body.teamAssignments).toMatchObject([{ readOnly: false, team: { id: teamA } }]);
    const inherited = await upload(t.editor.token, "inherited.png", { parentId: folder.body.id, inheritParentTeams: true });
    expect(inherited.status, inherited.text).toBe(200);
    expect(inherited.body[0].teamAssignments).toHaveLength(1);
    expect(inherited.body[0].teamAssignments).toEqual(await listedTeams(inherited.body[0].id));

    const put = await http().put(`/api/file/${direct.body[0].id}`, { token: t.editor.token, body: { name: "renamed.png" } });
    expect(put.status, put.text).toBe(200);
    expect(byTeam(put.body.teamAssignments)).toEqual(byTeam(await listedTeams(direct.body[0].id)));

    const init = await http().post("/api/v2/file/upload/init", { token: t.editor.token, query: { teamIds: `${teamB}:true` }, body: { name: "clip.mp4", size: 20, totalChunks: 1, contentType: "video/mp4" } });
    expect(init.status, init.text).toBe(200);
    await http().put(`/api/v2/file/upload/${init.body.uploadId}/part/1`, { token: t.editor.token, body: Buffer.alloc(20, 1), headers: { "content-type": "application/octet-stream" } });
    const done = await http().post(`/api/v2/file/upload/${init.body.uploadId}/complete`, { token: t.editor.token });
    expect(done.status, done.text).toBe(200);
    expect(done.body.teamAssignments).toMatchObject([{ readOnly: true, team: { id: teamB } }]);
    expect(done.body.teamAssignments).toEqual(await listedTeams(done.body.id));
  });
});

describe("'All team-enabled resources ... expose `teamAssignments`': fileFolder too", { timeout: 30_000 }, () => {
  it("GET /api/v2/fileFolder?select=id,teamAssignments(readOnly,team(id)) lists the folder's assignments; default select leaves them out", async () => {
    const folder = await http().post("/api/fileFolder/", { token: t.editor.token, query: { parentId: t.rootId, name: `f-${randomUUID()}` } });
    expect(folder.status, folder.text).toBe(200);
    expect(folder.body.teamAssignments).toEqual([]);
    const assigned = await http().post("/api/fileFolder/updateTeamAssignments", { token: t.owner.token, query: { fileFolderId: folder.body.id }, body: { assignToTeams: [{ teamId: teamA, readOnly: true }] } });
    expect(assigned.status, assigned.text).toBeLessThan(300);
    const res = await http().get("/api/v2/fileFolder", { token: t.owner.token, query: { search: `id=${folder.body.id}`, select: "id,teamAssignments(readOnly,team(id))" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.content).toEqual([{ id: folder.body.id, teamAssignments: [{ readOnly: true, team: { id: teamA } }] }]);
    const byTeamFilter = await http().get("/api/v2/fileFolder", { token: t.owner.token, query: { search: `teamAssignments.team.id=${teamA}`, select: "id" } });
    expect(byTeamFilter.body.content.map((f: { id: string }) => f.id)).toContain(folder.body.id);
    const plain = await http().get("/api/v2/fileFolder", { token: t.owner.token, query: { search: `id=${folder.body.id}` } });
    expect(plain.body.content[0]).not.toHaveProperty("teamAssignments");
  });
});

describe("GET /api/v2/file/view/summary: unselected fields are absent, as in GET /api/v2/file", { timeout: 30_000 }, () => {
  it("select=name renders no tags or teamAssignments on file items (the file has tags); select=name,tags renders the tags", async () => {
    const folder = await http().post("/api/fileFolder/", { token: t.editor.token, query: { parentId: t.rootId, name: `s-${randomUUID()}`, teamIds: `${teamA}:false` } });
    const file = await upload(t.editor.token, "tagged.png", { parentId: folder.body.id, tags: "red,blue", teamIds: `${teamA}:false` });
    expect(file.status, file.text).toBe(200);
    const summary = (select: string, folderSelect: string) =>
      http().get("/api/v2/file/view/summary", { token: t.viewer.token, query: { folderSearch: `id=${folder.body.id}`, fileSearch: `fileFolderId=${folder.body.id}`, select, folderSelect } });
    const named = await summary("name", "name");
    expect(named.status, named.text).toBe(200);
    expect(named.body.content).toEqual([{ folder: { id: folder.body.id, name: folder.body.name } }, { file: { id: file.body[0].id, name: "tagged.png" } }]);
    const tagged = await summary("name,tags,teamAssignments(readOnly,team(id))", "name,teamAssignments(readOnly,team(id))");
    expect(tagged.body.content[0].folder.teamAssignments).toEqual([{ readOnly: false, team: { id: teamA } }]);
    expect(tagged.body.content[1].file).toEqual({ id: file.body[0].id, name: "tagged.png", tags: expect.arrayContaining(["red", "blue"]), teamAssignments: [{ readOnly: false, team: { id: teamA } }] });
  });
});

describe("'parentId ... null only for the root folder': null outside a Page too", { timeout: 30_000 }, () => {
  it("the breadcrumb's root entry and moveBatchToFolder into the root render parentId null", async () => {
    const one = await http().post("/api/fileFolder/", { token: t.editor.token, query: { parentId: t.rootId, name: `b-${randomUUID()}` } });
    const two = await http().post("/api/fileFolder/", { token: t.editor.token, query: { parentId: one.body.id, name: "two" } });
    expect(two.status, two.text).toBe(200);
    expect(two.body.parentId).toBe(one.body.id);
    const crumbs = await http().get("/api/v2/fileFolder/breadcrumb", { token: t.viewer.token, query: { folderId: two.body.id } });
    expect(crumbs.status, crumbs.text).toBe(200);
    expect(crumbs.body.fileFolders.map((f: { id: string }) => f.id)).toEqual([t.rootId, one.body.id, two.body.id]);
    expect(crumbs.body.fileFolders[0]).toHaveProperty("parentId", null);
    expect(crumbs.body.fileFolders[1].parentId).toBe(t.rootId);

    const moved = await http().post("/api/fileFolder/moveBatchToFolder", { token: t.editor.token, body: { targetFolder: { id: t.rootId }, fileIds: [], folderIds: [two.body.id] } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.id).toBe(t.rootId);
    expect(moved.body).toHaveProperty("parentId", null);
    const list = await http().get("/api/v2/fileFolder", { token: t.viewer.token, query: { search: "parentId=NULL", select: "id,parentId" } });
    expect(list.body.content).toEqual([{ id: t.rootId, parentId: null }]);
  });
});

describe("storage statistics: 'storageSize | long | bytes, null = unlimited'", { timeout: 30_000 }, () => {
  it("a customer without storageSize gets totalAvailableStorageSize null, not a missing field", async () => {
    const res = await http().get("/api/v2/file/storageStatistics", { token: t.viewer.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toHaveProperty("totalAvailableStorageSize", null);
  });
});
