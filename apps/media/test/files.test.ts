// The file library over HTTP through the gateway (document 1 "File", "Endpoints / Files").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_files");
  [a, b] = await Promise.all([lib.tenant(), lib.tenant()]);
}, 60_000);
afterAll(() => lib?.close());

const names = (res: { body: { content: { name: string }[] } }) => res.body.content.map((f) => f.name).sort();

describe("GET /api/v2/file", () => {
  it("'sort: field,direction; repeatable; nested fields allowed': by the creator's e-mail or name (creator has email and name), either direction; the object itself is no sort key", async () => {
    const t = await lib.tenant();
    await lib.file(t, { name: "one.png", creator: { email: "b@x.test", name: "Zed" } });
    await lib.file(t, { name: "two.png", creator: { email: "a@x.test", name: "Amy" } });
    await lib.file(t, { name: "three.png", creator: { email: "c@x.test", name: "Max" } });
    await lib.file(t, { name: "four.png", creator: { email: "d@x.test", name: null } });
    const sorted = async (sort: string) => {
      const res = await lib.http.get("/api/v2/file", { token: t.viewer.token, query: { sort, select: "name,creator" } });
      expect(res.status, res.text).toBe(200);
      return res.body.content.map((f: { name: string }) => f.name);
    };
    expect(await sorted("creator.email,asc")).toEqual(["two.png", "one.png", "three.png", "four.png"]);
    expect(await sorted("creator.email,desc")).toEqual(["four.png", "three.png", "one.png", "two.png"]);
    // No name sorts last ascending, as a column's NULL does.
    expect(await sorted("creator.name,asc")).toEqual(["two.png", "three.png", "one.png", "four.png"]);
    const whole = await lib.http.get("/api/v2/file", { token: t.viewer.token, query: { sort: "creator,asc" } });
    expect(whole.status, whole.text).toBe(400);
    expect(whole.body.key).toBe("sort.error.invalid");
    expect(whole.body.message).toContain("sort on one of its fields");
  });

  it("lists with the common list parameters and the library filters (fileFolderId direct, fileFolderPath recursive, type, name)", async () => {
    const t = await lib.tenant();
    const sub = await lib.folder(t, t.rootId, "sub");
    const deep = await lib.folder(t, sub.id, "deep");
    await lib.file(t, { name: "root.png" });
    await lib.file(t, { name: "sub.mp4", contentType: "video/mp4", fileFolderId: sub.id });
    await lib.file(t, { name: "deep.png", fileFolderId: deep.id, tags: ["x"] });
    const get = (query: Record<string, string | number>) => lib.http.get("/api/v2/file", { token: t.viewer.token, query });

    expect(names(await get({ search: `fileFolderId=${sub.id}` }))).toEqual(["sub.mp4"]);
    // "fileFolderPath | string | full path, used for recursive search"
    expect(names(await get({ search: `fileFolderPath:${sub.id}` }))).toEqual(["deep.png", "sub.mp4"]);
    expect(names(await get({ search: "type=VIDEO" }))).toEqual(["sub.mp4"]);
    expect(names(await get({ search: "name:deep" }))).toEqual(["deep.png"]);
    expect(names(await get({ search: "tags:x" }))).toEqual(["deep.png"]);

    const page = await get({ size: 2, page: 1, sort: "name,desc" });
    expect(page.body).toMatchObject({ number: 1, size: 2, totalElements: 3, totalPages: 2, numberOfElements: 1, last: true });
    expect(page.body.content[0].name).toBe("deep.png");

    const deepFile = (await get({ search: "name=deep.png" })).body.content[0];
    expect(deepFile.fileFolderPath).toBe(`/${t.rootId}/${sub.id}/${deep.id}/`);
    expect(deepFile).toMatchObject({ contentType: "image/png", size: 100, customerId: t.id, muted: false });
    // "`*` = all primitive fields (not computed or relations) ... computed and select-only fields must be named explicitly"
    for (const computed of ["readOnly", "location", "thumbnail", "orientation", "creator"]) expect(deepFile).not.toHaveProperty(computed);
    const star = (await get({ search: "name=deep.png", select: "*" })).body.content[0];
    expect(Object.keys(star).sort()).toEqual(Object.keys(deepFile).sort());
    const named = (await get({ search: "name=deep.png", select: "*,readOnly,location,thumbnail,orientation,creator" })).body.content[0];
    expect(named).toMatchObject({ readOnly: true, creator: expect.any(Object) });
    expect(deepFile.tags).toEqual(["x"]);
    const projectedPage = await get({ search: "name=deep.png", select: "name" });
    // "`a,b` = listed fields ... `id` is always included": an unselected repeated field (tags) is absent, not [] (which would read as "no tags").
    expect(Object.keys(projectedPage.body.content[0]).sort()).toEqual(["id", "name"]);
    expect(projectedPage.body).not.toHaveProperty("selectedFields");
    expect((await get({ search: "name=deep.png", select: "name,tags" })).body.content[0].tags).toEqual(["x"]);

    expect((await get({ search: "nosuch=1" })).status).toBe(400);
  });

  it("filters by teamAssignments.team.id (media's team_assignment storage)", async () => {
    const t = await lib.tenant();
    const inTeam = await lib.file(t, { name: "team-file.png" });
    await lib.file(t, { name: "no-team.png" });
    const teamId = "01900000-0000-7000-8000-00000000abcd";
    await lib.knex("team").insert({ id: teamId, customer_id: t.id, name: "Lobby" });
    await lib.knex("team_assignment").insert({ resource_type: "file", resource_id: inTeam.id, team_id: teamId, read_only: true, customer_id: t.id });
    const res = await lib.http.get("/api/v2/file", { token: t.viewer.token, query: { search: `teamAssignments.team.id=${teamId}`, select: "name,teamAssignments(readOnly,team(id,name))" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.content).toEqual([{ id: inTeam.id, name: "team-file.png", teamAssignments: [{ readOnly: true, team: { id: teamId, name: "Lobby" } }] }]);
  });

  it("'readOnly: true when caller has no write access'; 'orientation: landscape, portrait or square (computed)'", async () => {
    await lib.file(a, { name: "wide.png", width: 1920, height: 1080 });
    // "location | string | download URL (computed; request it in select)": computed fields are named in select.
    const query = { search: "name=wide.png", select: "width,readOnly,orientation" };
    const asViewer = await lib.http.get("/api/v2/file", { token: a.viewer.token, query });
    const asEditor = await lib.http.get("/api/v2/file", { token: a.editor.token, query });
    expect(asViewer.body.content[0]).toMatchObject({ readOnly: true, orientation: "landscape", width: 1920 });
    expect(asEditor.body.content[0].readOnly).toBe(false);
  });

  it("a tenant never sees another tenant's files, even with customerId of the other tenant", async () => {
    const theirs = await lib.file(b, { name: "secret-of-b.png" });
    const res = await lib.http.get("/api/v2/file", { token: a.owner.token, query: { customerId: b.id, search: "name:secret" } });
    expect(res.status).toBe(200);
    expect(res.body.content).toEqual([]);
    expect((await lib.http.put(`/api/file/${theirs.id}`, { token: a.owner.token, body: { name: "x.png" } })).status).toBe(404);
    expect((await lib.http.delete(`/api/file/${theirs.id}`, { token: a.owner.token })).status).toBe(404);
    await lib.http.post("/api/v2/file/tags/add", { token: a.owner.token, query: { search: "name:secret" }, body: ["pwned"] });
    expect((await lib.knex("file").where({ id: theirs.id }).first()).tags).toEqual([]);
  });

  it("'duplicateDetails: files with the same checksum (select-only)', same tenant only", async () => {
    const one = await lib.file(a, { name: "dup-1.png", crcCheckSum: "abcd1234" });
    const two = await lib.file(a, { name: "dup-2.png", crcCheckSum: "abcd1234" });
    await lib.file(b, { name: "dup-b.png", crcCheckSum: "abcd1234" });
    const plain = await lib.http.get("/api/v2/file", { token: a.viewer.token, query: { search: "name=dup-1.png" } });
    expect(plain.body.content[0].duplicateDetails).toBeUndefined();
    const res = await lib.http.get("/api/v2/file", { token: a.viewer.token, query: { search: "name=dup-1.png", select: "name,duplicateDetails,usageDetails" } });
    expect(res.body.content[0].duplicateDetails).toEqual({ count: 1, files: [{ id: two.id, name: "dup-2.png", fileFolderId: a.rootId }] });
    // Usage comes from core later; until then it is empty.
    expect(res.body.content[0].usageDetails).toEqual({ contentUsage: [] });
    expect(one.id).toBeTruthy();
  });
});

describe("file writes", () => {
  it("PUT /api/file/{fileId} updates name, validity, tags, metaData, muted; VIEWER refused", async () => {
    const f = await lib.file(a, { name: "upd.png" });
    const body = { name: "updated.png", validFrom: 1000, validTo: 2000, tags: ["t1", "t2"], metaData: { k: "v" }, muted: true };
    expect((await lib.http.put(`/api/file/${f.id}`, { token: a.viewer.token, body })).status).toBe(403);
    const res = await lib.http.put(`/api/file/${f.id}`, { token: a.editor.token, body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: f.id, name: "updated.png", validFrom: 1000, validTo: 2000, tags: ["t1", "t2"], metaData: { k: "v" }, muted: true });
    const bad = await lib.http.put(`/api/file/${f.id}`, { token: a.editor.token, body: { validFrom: 3000 } });
    expect(bad.status).toBe(400);
    expect(bad.body.key).toBe("file.error.invalidValidity");
  });

  it("POST /api/file/rename?fileId=&newName=", async () => {
    const f = await lib.file(a, { name: "before.png" });
    expect((await lib.http.post("/api/file/rename", { token: a.viewer.token, query: { fileId: f.id, newName: "after.png" } })).status).toBe(403);
    expect((await lib.http.post("/api/file/rename", { token: a.editor.token, query: { fileId: f.id, newName: "after.png" } })).status).toBeLessThan(300);
    expect((await lib.knex("file").where({ id: f.id }).first()).name).toBe("after.png");
    expect((await lib.http.post("/api/file/rename", { token: a.editor.token, query: { fileId: f.id, newName: " " } })).status).toBe(400);
  });

  it("DELETE /api/file/{fileId} publishes media.file.deleted with removeFromPlaylists", async () => {
    const f = await lib.file(a, { name: "gone.png", storageKey: "blob-1", thumbnailKey: "thumb-1" });
    expect((await lib.http.delete(`/api/file/${f.id}`, { token: a.viewer.token })).status).toBe(403);
    const res = await lib.http.delete(`/api/file/${f.id}`, { token: a.editor.token, query: { removeFromPlaylists: true } });
    expect(res.status).toBeLessThan(300);
    expect(await lib.knex("file").where({ id: f.id }).first()).toBeUndefined();
    const [event] = await lib.eventsOf("media.file.deleted", (e) => e.data.fileIds.includes(f.id));
    expect(event).toMatchObject({ customerId: a.id, data: { fileIds: [f.id], removeFromPlaylists: true, blobs: [{ fileId: f.id, storageKey: "blob-1", thumbnailKey: "thumb-1" }] } });
  });

  it("PUT /api/file/replaceFileReference (APPROVER) publishes media.file.replaced, and removeOldFile deletes the old file", async () => {
    const old = await lib.file(a, { name: "old.png" });
    const source = await lib.file(a, { name: "new.png" });
    const query = { fileIdToReplace: old.id, sourceFileId: source.id, removeOldFile: true, teamAssignmentMode: "OVERWRITE" };
    expect((await lib.http.put("/api/file/replaceFileReference", { token: a.editor.token, query })).status).toBe(403);
    const res = await lib.http.put("/api/file/replaceFileReference", { token: a.approver.token, query });
    expect(res.status, res.text).toBeLessThan(300);
    const [replaced] = await lib.eventsOf("media.file.replaced", (e) => e.data.sourceFileId === source.id);
    expect(replaced.data).toEqual({ fileIdToReplace: old.id, sourceFileId: source.id, removeOldFile: true, teamAssignmentMode: "OVERWRITE" });
    await lib.eventsOf("media.file.deleted", (e) => e.data.fileIds.includes(old.id));
    expect(await lib.knex("file").where({ id: old.id }).first()).toBeUndefined();

    const keep = await lib.file(a, { name: "keep.png" });
    await lib.http.put("/api/file/replaceFileReference", { token: a.approver.token, query: { fileIdToReplace: keep.id, sourceFileId: source.id } });
    const [merged] = await lib.eventsOf("media.file.replaced", (e) => e.data.fileIdToReplace === keep.id);
    expect(merged.data).toMatchObject({ removeOldFile: false, teamAssignmentMode: "MERGE" });
    expect(await lib.knex("file").where({ id: keep.id }).first()).toBeDefined();

    const missing = await lib.http.put("/api/file/replaceFileReference", { token: a.approver.token, query: { fileIdToReplace: keep.id } });
    expect(missing.status).toBe(400);
    const other = await lib.file(b, { name: "b-src.png" });
    expect((await lib.http.put("/api/file/replaceFileReference", { token: a.approver.token, query: { fileIdToReplace: keep.id, sourceFileId: other.id } })).status).toBe(404);
  });
});

describe("bulk by search", () => {
  it("'Bulk operations act on the files matched by search': tags add / remove / set", async () => {
    const t = await lib.tenant();
    const x = await lib.file(t, { name: "bulk-x.png", tags: ["keep"] });
    const y = await lib.file(t, { name: "bulk-y.png", tags: ["keep", "old"] });
    const z = await lib.file(t, { name: "other.png" });
    const post = (op: string, body: string[], token = t.editor.token) => lib.http.post(`/api/v2/file/tags/${op}`, { token, query: { search: "name^bulk" }, body });
    expect((await post("add", ["new"], t.viewer.token)).status).toBe(403);
    expect((await post("add", ["new", "keep"])).status).toBeLessThan(300);
    const tags = async (id: string) => (await lib.knex("file").where({ id }).first()).tags;
    expect(await tags(x.id)).toEqual(["keep", "new"]);
    expect(await tags(y.id)).toEqual(["keep", "old", "new"]);
    expect(await tags(z.id)).toEqual([]);
    await post("remove", ["keep"]);
    expect(await tags(y.id)).toEqual(["old", "new"]);
    await post("set", ["only"]);
    expect(await tags(x.id)).toEqual(["only"]);
    expect(await tags(y.id)).toEqual(["only"]);
    expect((await lib.http.post("/api/v2/file/tags/add", { token: t.editor.token, query: { search: "name^(" }, body: ["a"] })).status).toBe(400);
  });

  it("POST /api/v2/file/validity/set (APPROVER) sets the window of every matched file", async () => {
    const t = await lib.tenant();
    const f = await lib.file(t, { name: "valid.png" });
    const query = { search: "name=valid.png", validFrom: 5, validTo: 10 };
    expect((await lib.http.post("/api/v2/file/validity/set", { token: t.editor.token, query })).status).toBe(403);
    expect((await lib.http.post("/api/v2/file/validity/set", { token: t.approver.token, query })).status).toBeLessThan(300);
    expect(await lib.knex("file").where({ id: f.id }).first()).toMatchObject({ valid_from: 5, valid_to: 10 });
    expect((await lib.http.post("/api/v2/file/validity/set", { token: t.approver.token, query: { ...query, validFrom: 11 } })).status).toBe(400);
  });
});

describe("summary and storage statistics", () => {
  it("GET /api/v2/file/view/summary pages folders first, then files", async () => {
    const t = await lib.tenant();
    const f1 = await lib.folder(t, t.rootId, "a-folder");
    await lib.folder(t, t.rootId, "b-folder");
    await lib.file(t, { name: "c.png" });
    await lib.file(t, { name: "d.png" });
    await lib.file(t, { name: "e.png" });
    const query = { folderSearch: `parentId=${t.rootId}`, fileSearch: `fileFolderId=${t.rootId}`, size: 3 };
    const first = await lib.http.get("/api/v2/file/view/summary", { token: t.viewer.token, query });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ totalElements: 5, totalPages: 2, numberOfElements: 3, first: true, last: false });
    expect(first.body.content[0].folder.id).toBe(f1.id);
    expect(first.body.content.map((i: any) => i.folder?.name ?? i.file?.name)).toEqual(["a-folder", "b-folder", "c.png"]);
    const second = await lib.http.get("/api/v2/file/view/summary", { token: t.viewer.token, query: { ...query, page: 1 } });
    expect(second.body.content.map((i: any) => i.file?.name)).toEqual(["d.png", "e.png"]);
  });

  it("storage statistics (GET /api/v2/file/storageStatistics) sum the tenant's uploaded files", async () => {
    const t = await lib.tenant();
    await lib.file(t, { size: 1000 });
    await lib.file(t, { size: 234 });
    const res = await lib.http.get("/api/v2/file/storageStatistics", { token: t.viewer.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ usedUploadedFileStorageSize: 1234, totalUsedStorageSize: 1234, usedDatasourceResourceStorageSize: 0 });
    // "storageSize ... null = unlimited": no limit, so the available size is null (not 0, not left out).
    expect(res.body.totalAvailableStorageSize).toBeNull();
  });
});
