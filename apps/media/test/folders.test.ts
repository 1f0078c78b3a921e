// File folders over HTTP through the gateway (document 1 "File folder", "Endpoints / Folders").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLibrary, type Library, type Tenant } from "./files-support.js";
import { serviceDeps } from "./support/service-deps.js";
import { sweepOutdatedFiles } from "../src/validity/validity-sweep.js";
import { createFilesystemBlobStore } from "@signage/storage";
import { tmpdir } from "node:os";
import { join } from "node:path";

let lib: Library;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_folders");
  [a, b] = await Promise.all([lib.tenant(), lib.tenant()]);
}, 60_000);
afterAll(() => lib?.close());

describe("create and list", () => {
  it("'Root folder: auto-created per customer, has no name and parentId null' (from customer.created)", async () => {
    const res = await lib.http.get("/api/v2/fileFolder", { token: a.viewer.token, query: { search: "parentId=NULL" } });
    expect(res.body.content).toHaveLength(1);
    expect(res.body.content[0].name).toBeUndefined();
    // "parentId | string | null only for the root folder": rendered as null, not left out.
    expect(res.body.content[0]).toHaveProperty("parentId", null);
    expect(res.body.content[0]).toMatchObject({ id: a.rootId, fileFolderType: 1, fileFolderPath: `/${a.rootId}/` });
    // "fileCount | integer | computed": like readOnly, rendered only when named ("computed and select-only fields must be named explicitly").
    expect(res.body.content[0]).not.toHaveProperty("fileCount");
    expect(res.body.content[0]).not.toHaveProperty("readOnly");
    const named = await lib.http.get("/api/v2/fileFolder", { token: a.viewer.token, query: { search: "parentId=NULL", select: "*,fileCount,readOnly" } });
    expect(named.body.content[0]).toMatchObject({ id: a.rootId, fileFolderType: 1, fileCount: 0, readOnly: true });
    // A select without parentId leaves it out; a child folder carries its parent's id.
    const projected = await lib.http.get("/api/v2/fileFolder", { token: a.viewer.token, query: { search: "parentId=NULL", select: "fileFolderType" } });
    expect(projected.body.content[0]).not.toHaveProperty("parentId");
    const child = await lib.folder(a, a.rootId, "child-of-root");
    const children = await lib.http.get("/api/v2/fileFolder", { token: a.viewer.token, query: { search: `id=${child.id}` } });
    expect(children.body.content[0].parentId).toBe(a.rootId);
  });

  it("POST /api/fileFolder/ needs parentId ('null cannot be passed as parent') and name; VIEWER refused", async () => {
    expect((await lib.http.post("/api/fileFolder/", { token: a.viewer.token, query: { parentId: a.rootId, name: "x" } })).status).toBe(403);
    const noParent = await lib.http.post("/api/fileFolder/", { token: a.editor.token, query: { name: "x" } });
    expect(noParent.status).toBe(400);
    expect(noParent.body.key).toBe("fileFolder.error.parentRequired");
    expect((await lib.http.post("/api/fileFolder/", { token: a.editor.token, query: { parentId: a.rootId, name: " " } })).status).toBe(400);
    expect((await lib.http.post("/api/fileFolder/", { token: a.editor.token, query: { parentId: b.rootId, name: "x" } })).status).toBe(404);
    const res = await lib.http.post("/api/fileFolder/", { token: a.editor.token, query: { parentId: a.rootId, name: "Photos", cleanupOutdatedFiles: true } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "Photos", parentId: a.rootId, customerId: a.id, cleanupOutdatedFiles: true, fileFolderType: 1, syncType: "NOT_SYNCED" });
    expect(res.body.fileFolderPath).toBe(`/${a.rootId}/${res.body.id}/`);
    const teams = await lib.http.post("/api/fileFolder/", { token: a.editor.token, query: { parentId: a.rootId, name: "T", teamIds: "nope:true" } });
    expect(teams.status).toBe(400);
  });

  it("lists with fileFolderPath (recursive) and parentId filters; fileCount computed; other tenants invisible", async () => {
    const top = await lib.folder(a, a.rootId, "top");
    const mid = await lib.folder(a, top.id, "mid");
    await lib.folder(a, mid.id, "low");
    await lib.file(a, { fileFolderId: mid.id });
    await lib.file(a, { fileFolderId: mid.id });
    const under = await lib.http.get("/api/v2/fileFolder", { token: a.viewer.token, query: { search: `fileFolderPath:${top.id}`, sort: "name,asc", select: "name,fileCount" } });
    expect(under.body.content.map((f: any) => f.name)).toEqual(["low", "mid", "top"]);
    expect(under.body.content.find((f: any) => f.name === "mid").fileCount).toBe(2);
    const children = await lib.http.get("/api/v2/fileFolder", { token: a.viewer.token, query: { search: `parentId=${top.id}` } });
    expect(children.body.content.map((f: any) => f.name)).toEqual(["mid"]);
    const cross = await lib.http.get("/api/v2/fileFolder", { token: b.owner.token, query: { search: `fileFolderPath:${top.id}`, customerId: a.id } });
    expect(cross.body.content).toEqual([]);
  });

  it("breadcrumb (GET /api/v2/fileFolder/breadcrumb?folderId=) goes from the root to the folder", async () => {
    const one = await lib.folder(a, a.rootId, "one");
    const two = await lib.folder(a, one.id, "two");
    const res = await lib.http.get("/api/v2/fileFolder/breadcrumb", { token: a.viewer.token, query: { folderId: two.id } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.fileFolders.map((f: any) => f.id)).toEqual([a.rootId, one.id, two.id]);
    expect((await lib.http.get("/api/v2/fileFolder/breadcrumb", { token: b.viewer.token, query: { folderId: two.id } })).status).toBe(404);
  });
});

describe("rename, delete, move, remove", () => {
  it("POST /api/fileFolder/rename; the root has no name", async () => {
    const f = await lib.folder(a, a.rootId, "old name");
    expect((await lib.http.post("/api/fileFolder/rename", { token: a.viewer.token, query: { folderId: f.id, newName: "n" } })).status).toBe(403);
    expect((await lib.http.post("/api/fileFolder/rename", { token: a.editor.token, query: { folderId: f.id, newName: "new name" } })).status).toBeLessThan(300);
    expect((await lib.knex("file_folder").where({ id: f.id }).first()).name).toBe("new name");
    expect((await lib.http.post("/api/fileFolder/rename", { token: a.editor.token, query: { folderId: a.rootId, newName: "r" } })).status).toBe(400);
  });

  it("'Folder deletion removes every contained folder and file recursively'; the root 'cannot be deleted'", async () => {
    const top = await lib.folder(a, a.rootId, "del-top");
    const sub = await lib.folder(a, top.id, "del-sub");
    const f1 = await lib.file(a, { fileFolderId: top.id });
    const f2 = await lib.file(a, { fileFolderId: sub.id });
    const keep = await lib.file(a, { fileFolderId: a.rootId });
    expect((await lib.http.delete(`/api/fileFolder/${top.id}`, { token: a.viewer.token })).status).toBe(403);
    expect((await lib.http.delete(`/api/fileFolder/${top.id}`, { token: b.editor.token })).status).toBe(404);
    expect((await lib.http.delete(`/api/fileFolder/${top.id}`, { token: a.editor.token })).status).toBeLessThan(300);
    expect(await lib.knex("file_folder").whereIn("id", [top.id, sub.id])).toEqual([]);
    expect((await lib.knex("file").whereIn("id", [f1.id, f2.id, keep.id])).map((r: any) => r.id)).toEqual([keep.id]);
    const [event] = await lib.eventsOf("media.file.deleted", (e) => e.data.fileIds.includes(f1.id));
    expect(event.data.fileIds.sort()).toEqual([f1.id, f2.id].sort());
    const root = await lib.http.delete(`/api/fileFolder/${a.rootId}`, { token: a.owner.token });
    expect(root.status).toBe(400);
    expect(root.body.key).toBe("fileFolder.error.rootNotDeletable");
  });

  it("moveBatchToFolder moves files and folders in one transaction and keeps fileFolderPath right", async () => {
    const src = await lib.folder(a, a.rootId, "mv-src");
    const child = await lib.folder(a, src.id, "mv-child");
    const target = await lib.folder(a, a.rootId, "mv-target");
    const inChild = await lib.file(a, { fileFolderId: child.id });
    const loose = await lib.file(a, { fileFolderId: a.rootId });
    const batch = { targetFolder: { id: target.id }, fileIds: [loose.id], folderIds: [src.id] };
    expect((await lib.http.post("/api/fileFolder/moveBatchToFolder", { token: a.viewer.token, body: batch })).status).toBe(403);
    const res = await lib.http.post("/api/fileFolder/moveBatchToFolder", { token: a.editor.token, body: batch });
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(target.id);
    const file = async (id: string) => (await lib.http.get("/api/v2/file", { token: a.viewer.token, query: { search: `id=${id}` } })).body.content[0];
    expect((await file(inChild.id)).fileFolderPath).toBe(`/${a.rootId}/${target.id}/${src.id}/${child.id}/`);
    expect(await file(loose.id)).toMatchObject({ fileFolderId: target.id, fileFolderPath: `/${a.rootId}/${target.id}/` });
    const recursive = await lib.http.get("/api/v2/file", { token: a.viewer.token, query: { search: `fileFolderPath:${target.id}` } });
    expect(recursive.body.content.map((f: any) => f.id).sort()).toEqual([inChild.id, loose.id].sort());

    // Into itself: refused, nothing moved.
    const cycle = await lib.http.post("/api/fileFolder/moveBatchToFolder", { token: a.editor.token, body: { targetFolder: { id: child.id }, fileIds: [loose.id], folderIds: [src.id] } });
    expect(cycle.status).toBe(400);
    expect((await file(loose.id)).fileFolderId).toBe(target.id);
    // One unknown id fails the whole batch.
    const unknown = await lib.http.post("/api/fileFolder/moveBatchToFolder", { token: a.editor.token, body: { targetFolder: { id: a.rootId }, fileIds: [loose.id, "00000000-0000-7000-8000-000000000000"] } });
    expect(unknown.status).toBe(404);
    expect((await file(loose.id)).fileFolderId).toBe(target.id);
  });

  it("removeBatch deletes files and folders in one transaction (an unknown id deletes nothing)", async () => {
    const f = await lib.folder(a, a.rootId, "rm-folder");
    const inside = await lib.file(a, { fileFolderId: f.id });
    const loose = await lib.file(a);
    const theirs = await lib.file(b);
    const bad = await lib.http.post("/api/fileFolder/removeBatch", { token: a.editor.token, body: { fileIds: [loose.id, theirs.id], folderIds: [f.id] } });
    expect(bad.status).toBe(404);
    expect(await lib.knex("file").whereIn("id", [inside.id, loose.id, theirs.id])).toHaveLength(3);
    const withRoot = await lib.http.post("/api/fileFolder/removeBatch", { token: a.editor.token, body: { folderIds: [a.rootId] } });
    expect(withRoot.status).toBe(400);
    const ok = await lib.http.post("/api/fileFolder/removeBatch", { token: a.editor.token, query: { removeFromPlaylists: true }, body: { fileIds: [loose.id], folderIds: [f.id] } });
    expect(ok.status, ok.text).toBeLessThan(300);
    expect((await lib.knex("file").whereIn("id", [inside.id, loose.id, theirs.id])).map((r: any) => r.id)).toEqual([theirs.id]);
    const [event] = await lib.eventsOf("media.file.deleted", (e) => e.data.fileIds.includes(loose.id));
    expect(event.data.removeFromPlaylists).toBe(true);
  });
});

describe("filtered and synced folders, cleanup mode", () => {
  it("POST /api/fileFolder/addFilteredFileFolder needs quickFilterId and creates fileFolderType 2, which holds no files", async () => {
    const missing = await lib.http.post("/api/fileFolder/addFilteredFileFolder", { token: a.editor.token, query: { parentId: a.rootId, name: "F" } });
    expect(missing.status).toBe(400);
    // qf-1 is no quick filter of core (more in filtered-folders.test.ts).
    const unknown = await lib.http.post("/api/fileFolder/addFilteredFileFolder", { token: a.editor.token, query: { parentId: a.rootId, name: "F", quickFilterId: "qf-1" } });
    expect([unknown.status, unknown.body.key, unknown.body.details?.quickFilterId]).toEqual([400, "quickFilter.error.notFound", "qf-1"]);
    const filter = await lib.http.post("/api/quickFilter/", { token: a.editor.token, body: { name: "folders-test", filteredEntityType: "FILE", criteria: {} } });
    expect(filter.status, filter.text).toBe(200);
    const res = await lib.http.post("/api/fileFolder/addFilteredFileFolder", { token: a.editor.token, query: { parentId: a.rootId, name: "F", quickFilterId: filter.body.id } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ fileFolderType: 2, quickFilterId: filter.body.id });
    const move = await lib.http.post("/api/fileFolder/moveBatchToFolder", { token: a.editor.token, body: { targetFolder: { id: res.body.id }, fileIds: [(await lib.file(a)).id] } });
    expect(move.status).toBe(400);
  });

  it("set cleanup mode (PUT /api/fileFolder/setCleanupOutdatedFiles) is APPROVER", async () => {
    const f = await lib.folder(a, a.rootId, "cleanup");
    const query = { folderId: f.id, cleanupOutdatedFiles: true };
    expect((await lib.http.put("/api/fileFolder/setCleanupOutdatedFiles", { token: a.editor.token, query })).status).toBe(403);
    expect((await lib.http.put("/api/fileFolder/setCleanupOutdatedFiles", { token: a.approver.token, query })).status).toBeLessThan(300);
    expect((await lib.knex("file_folder").where({ id: f.id }).first()).cleanup_outdated_files).toBe(true);
    expect((await lib.http.put("/api/fileFolder/setCleanupOutdatedFiles", { token: a.approver.token, query: { folderId: f.id } })).status).toBe(400);
  });

  it("synced folders: required fields validated (400), then 501 until cloud sync exists", async () => {
    const alpha = (body: object) => lib.http.post("/api/fileFolder/addSyncedAlphaDriveFolder", { token: a.editor.token, query: { parentId: a.rootId, name: "A" }, body });
    const missing = await alpha({ alphaCredentialId: "c" });
    expect(missing.status).toBe(400);
    expect(missing.body.details.parameter).toBe("alphaFolderId");
    expect((await alpha({ alphaCredentialId: "c", alphaFolderId: "f", fileTypes: ["IMAGE"], syncMode: "DOWNLOAD_ONCE" })).status).toBe(501);
    const beta = await lib.http.post("/api/fileFolder/addSyncedBetaDriveFolder", { token: a.editor.token, query: { parentId: a.rootId, name: "B" }, body: { betaTenantId: "t", driveId: "d", betaDriveFolderId: "x", fileTypes: ["VIDEO"] } });
    expect(beta.status).toBe(501);
    expect((await lib.http.post("/api/fileFolder/addSyncedGammaFolder", { token: a.viewer.token, query: { parentId: a.rootId, name: "G" }, body: {} })).status).toBe(403);
    const regular = await lib.folder(a, a.rootId, "not-synced");
    const sync = await lib.http.put("/api/fileFolder/synchronize", { token: a.editor.token, query: { folderId: regular.id } });
    expect(sync.status).toBe(400);
    expect(sync.body.key).toBe("fileFolder.error.notSynced");
    expect((await lib.http.put("/api/fileFolder/detachAlphaCredential", { token: a.editor.token, query: { folderId: regular.id } })).status).toBe(400);
  });
});

describe("validity sweep", () => {
  it("'cleanupOutdatedFiles: removes files past their validity', once across concurrent replicas", async () => {
    const clean = await lib.folder(a, a.rootId, "sweep-clean", { cleanupOutdatedFiles: true });
    const plain = await lib.folder(a, a.rootId, "sweep-plain");
    const now = Date.now();
    const expired = await lib.file(a, { fileFolderId: clean.id, validTo: now - 1000 });
    const current = await lib.file(a, { fileFolderId: clean.id, validTo: now + 3_600_000 });
    const open = await lib.file(a, { fileFolderId: clean.id });
    const elsewhere = await lib.file(a, { fileFolderId: plain.id, validTo: now - 1000 });
    const deps = serviceDeps(lib.knex, lib.platform.bus, createFilesystemBlobStore({ root: join(tmpdir(), "media-folders-sweep") }));
    const runs = await Promise.all([sweepOutdatedFiles(deps, now), sweepOutdatedFiles(deps, now), sweepOutdatedFiles(deps, now)]);
    expect(runs.reduce((n: number, r) => n + (r ?? 0), 0)).toBe(1);
    expect((await lib.knex("file").whereIn("id", [expired.id, current.id, open.id, elsewhere.id])).map((r: any) => r.id).sort()).toEqual([current.id, open.id, elsewhere.id].sort());
    expect(await sweepOutdatedFiles(deps, now)).toBe(0);
    const events = await lib.eventsOf("media.file.deleted", (e) => e.data.fileIds.includes(expired.id));
    await new Promise((r) => setTimeout(r, 100));
    expect(lib.events.filter((e) => e.type === "media.file.deleted" && e.data.fileIds.includes(expired.id))).toHaveLength(events.length);
    expect(events).toHaveLength(1);
  });
});
