// Filtered folders (document 1: "Folders are ... filtered (virtual folders filled
// by a saved quick filter)") over HTTP through the gateway, with core's real quick
// filters: the create refuses a quick filter the folder could not show, and
// fileCount / firstFileThumbnail are what listing the folder shows the caller.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHandlerContext } from "@connectrpc/connect";
import { FileFolderService, type FileFolder } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { createUser, eventually, type TenantUser } from "@signage/testing";
import { completeFilteredFolders } from "../src/folders/filtered-folder-counts.js";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_filtered_folders");
  [a, b] = await Promise.all([lib.tenant(), lib.tenant()]);
}, 60_000);
afterAll(() => lib?.close());

async function quickFilter(token: string, filteredEntityType: string, criteria: Record<string, unknown>, query: Record<string, string | number> = {}) {
  const res = await lib.http.post("/api/quickFilter/", { token, query, body: { name: `qf-${randomUUID()}`, filteredEntityType, criteria } });
  if (res.status !== 200) throw new Error(`create quick filter failed: ${res.status} ${res.text}`);
  return res.body.id as string;
}

function createFiltered(token: string, query: Record<string, string | number>) {
  return lib.http.post("/api/fileFolder/addFilteredFileFolder", { token, query: { name: `filtered-${randomUUID()}`, ...query } });
}

async function folderNamed(name: string) {
  return lib.knex("file_folder").where({ name }).first();
}

describe("POST /api/fileFolder/addFilteredFileFolder: 'query parentId (req), name (req), quickFilterId (req), teamIds'", () => {
  it("an unknown quickFilterId is refused like in a list (400 quickFilter.error.notFound); nothing is written", async () => {
    for (const quickFilterId of [randomUUID(), "qf-1"]) {
      const name = `unknown-${randomUUID()}`;
      const res = await createFiltered(a.editor.token, { parentId: a.rootId, name, quickFilterId });
      expect([res.status, res.body.key, res.body.details?.quickFilterId], quickFilterId).toEqual([400, "quickFilter.error.notFound", quickFilterId]);
      expect(await folderNamed(name)).toBeUndefined();
    }
  });

  it("another tenant's quick filter is refused, also for an ADMIN creating in tenant A (whose own scope includes B)", async () => {
    const foreign = await quickFilter(b.editor.token, "FILE", {});
    const name = `foreign-${randomUUID()}`;
    const res = await createFiltered(a.editor.token, { parentId: a.rootId, name, quickFilterId: foreign });
    expect([res.status, res.body.key]).toEqual([400, "quickFilter.error.notFound"]);
    const byAdmin = await createFiltered(lib.admin, { customerId: a.id, parentId: a.rootId, name, quickFilterId: foreign });
    expect([byAdmin.status, byAdmin.body.key]).toEqual([400, "quickFilter.error.notFound"]);
    expect(await folderNamed(name)).toBeUndefined();
    // The same ADMIN call with tenant A's own filter succeeds.
    const own = await quickFilter(a.editor.token, "FILE", {});
    const ok = await createFiltered(lib.admin, { customerId: a.id, parentId: a.rootId, quickFilterId: own });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ customerId: a.id, fileFolderType: 2, quickFilterId: own });
  });

  // Refused with the key the file list and the summary give for the same filter (core's compile).
  it("a DEVICE or CONTENT quick filter of the same tenant is refused (a filtered folder shows files): 400 quickFilter.error.entityTypeMismatch", async () => {
    for (const type of ["DEVICE", "CONTENT"]) {
      const id = await quickFilter(a.editor.token, type, {});
      const name = `${type}-${randomUUID()}`;
      const res = await createFiltered(a.editor.token, { parentId: a.rootId, name, quickFilterId: id });
      expect([res.status, res.body.key, res.body.details?.filteredEntityType, res.body.details?.expected], type).toEqual([400, "quickFilter.error.entityTypeMismatch", type, "FILE"]);
      expect(await folderNamed(name)).toBeUndefined();
    }
  });
});

describe("fileCount and firstFileThumbnail of a filtered folder", () => {
  const listFolders = (token: string, search: string, query: Record<string, string | number> = {}) =>
    lib.http.get("/api/v2/fileFolder", { token, query: { search, sort: "name,asc", ...query } });
  const listFiles = (token: string, folderId: string, query: Record<string, string | number> = {}) =>
    lib.http.get("/api/v2/file", { token, query: { search: `fileFolderId=${folderId}`, size: 100, ...query } });

  it("equals the number of files listing the folder returns; folders sharing a filter, other filters and stored folders in the same page", async () => {
    const tag = `summer-${randomUUID().slice(0, 8)}`;
    const stored = await lib.folder(a, a.rootId, `stored-${tag}`);
    await lib.file(a, { name: "c-summer.png", tags: [tag], fileFolderId: stored.id, thumbnailKey: "thumbs/c" });
    await lib.file(a, { name: "a-summer.png", tags: [tag], thumbnailKey: "thumbs/a" });
    await lib.file(a, { name: "b-summer.png", tags: [tag, "video"], thumbnailKey: "thumbs/b" });
    await lib.file(a, { name: "winter.png", tags: ["winter"] });
    await lib.file(b, { name: "b-tenant-summer.png", tags: [tag] });
    const summer = await quickFilter(a.editor.token, "FILE", { tags: [tag] });
    const videos = await quickFilter(a.editor.token, "FILE", { tags: ["video"] });
    const make = async (name: string, quickFilterId: string) => {
      const res = await createFiltered(a.editor.token, { parentId: a.rootId, name: `${tag}-${name}`, quickFilterId });
      expect(res.status, res.text).toBe(200);
      return res.body as { id: string; fileCount: number };
    };
    const one = await make("1", summer);
    expect(one.fileCount).toBe(3); // the created folder is read back with the default fields
    const two = await make("2", summer);
    const video = await make("3", videos);

    // "fileCount | integer | computed": named in select ("computed and select-only fields must be named explicitly").
    const page = await listFolders(a.viewer.token, `name^${tag}|name^stored-${tag}`, { select: "*,fileCount" });
    expect(page.status, page.text).toBe(200);
    const counts = Object.fromEntries(page.body.content.map((f: any) => [f.id, f.fileCount]));
    expect(counts).toEqual({ [one.id]: 3, [two.id]: 3, [video.id]: 1, [stored.id]: 1 });
    for (const folder of [one, two, video]) {
      const files = await listFiles(a.viewer.token, folder.id);
      expect(files.status, files.text).toBe(200);
      expect(files.body.totalElements).toBe(counts[folder.id]);
    }
    // The first file by name, as for stored folders (URLs per request, so compared with the file list's).
    const first = (await listFiles(a.viewer.token, one.id, { sort: "name,asc", select: "name,thumbnail" })).body.content[0];
    expect(first.name).toBe("a-summer.png");
    const thumbnails = Object.fromEntries(page.body.content.map((f: any) => [f.id, f.firstFileThumbnail]));
    expect(first.thumbnail).toMatch(/^\/storage\//);
    expect(thumbnails[one.id]).toEqual(first.thumbnail);

    // "Resolve each distinct quick filter of the page once": three filtered folders, two filters, two resolutions.
    const resolved: string[] = [];
    const quickFilters = { resolve: async (_ctx: unknown, id: string) => (resolved.push(id), "") };
    const ctx = createHandlerContext({ service: FileFolderService, method: FileFolderService.method.listFileFolders, protocolName: "connect", requestMethod: "POST", url: "http://media/" });
    const folders = [one, two, video, stored].map((f) => ({ id: f.id }) as FileFolder);
    await completeFilteredFolders(ctx, { knex: lib.knex, quickFilters }, folders, { fileCount: true, firstFileThumbnail: false }, undefined);
    expect(resolved.sort()).toEqual([summer, videos].sort());
    expect(folders.map((f) => f.fileCount)).toEqual([4n, 4n, 4n, undefined]); // "" = every file of tenant A; stored folders untouched

    // Not selected: not computed.
    const plain = await listFolders(a.viewer.token, `name^${tag}`, { select: "id,name" });
    expect(plain.body.content.every((f: any) => f.fileCount === undefined)).toBe(true);
    const onlyCount = await listFolders(a.viewer.token, `id=${one.id}`, { select: "fileCount" });
    expect(onlyCount.body.content).toMatchObject([{ fileCount: 3 }]);

    // An ADMIN (scope: every tenant) sees the folder's tenant's files only, in the list and the count.
    const adminFiles = await listFiles(lib.admin, one.id);
    expect(adminFiles.body.content.map((f: any) => f.name).sort()).toEqual(["a-summer.png", "b-summer.png", "c-summer.png"]);
    const adminFolder = await listFolders(lib.admin, `id=${one.id}`, { select: "fileCount" });
    expect(adminFolder.body.content[0].fileCount).toBe(3);
  });

  it("a restricted team user's count excludes files of other teams, as the user's file list does", async () => {
    const owner = a.owner;
    const restricted: TenantUser = await createUser(lib.http, lib.admin, a.id, "EDITOR", { restricted: true });
    const teamA = (await lib.http.post("/api/team/", { token: owner.token, body: { name: `A-${randomUUID()}` } })).body.id as string;
    const teamB = (await lib.http.post("/api/team/", { token: owner.token, body: { name: `B-${randomUUID()}` } })).body.id as string;
    const member = await lib.http.post("/api/user/updateTeamAssignments", { token: owner.token, query: { email: restricted.email }, body: { assignToTeams: [{ teamId: teamA, readOnly: false }] } });
    expect(member.status, member.text).toBeLessThan(300);
    await eventually(() => lib.knex("team").whereIn("id", [teamA, teamB]), (rows) => rows.length === 2, "teams replicated to media");

    const tag = `team-${randomUUID().slice(0, 8)}`;
    const assign = async (name: string, teamId: string) => {
      const file = await lib.file(a, { name, tags: [tag] });
      const res = await lib.http.post("/api/file/updateTeamAssignments", { token: owner.token, query: { fileId: file.id }, body: { assignToTeams: [{ teamId, readOnly: false }] } });
      expect(res.status, res.text).toBeLessThan(300);
    };
    await assign("in-a.png", teamA);
    await assign("in-b.png", teamB);
    const filter = await quickFilter(owner.token, "FILE", { tags: [tag] });
    const folder = await createFiltered(owner.token, { parentId: a.rootId, name: tag, quickFilterId: filter, teamIds: `${teamA}:false` });
    expect(folder.status, folder.text).toBe(200);

    const countFor = async (token: string) => (await listFolders(token, `id=${folder.body.id}`, { select: "fileCount" })).body.content[0]?.fileCount;
    const filesFor = async (token: string) => (await listFiles(token, folder.body.id)).body;
    expect(await countFor(owner.token)).toBe(2);
    expect((await filesFor(owner.token)).totalElements).toBe(2);
    const seen = await eventually(() => filesFor(restricted.token), (body) => body.totalElements === 1, "restricted user's file list");
    expect(seen.content.map((f: any) => f.name)).toEqual(["in-a.png"]);
    expect(await countFor(restricted.token)).toBe(1);

    // "restricted = sees only team-assigned resources": a quick filter of team B is hidden from
    // this user, so naming it in a list is as unknown as a missing id, while a filtered folder of
    // team A built on it still shows (and counts) what its filter selects among the user's files.
    const hiddenFilter = await quickFilter(owner.token, "FILE", { tags: [tag] }, { teamIds: `${teamB}:false` });
    const hiddenFolder = await createFiltered(owner.token, { parentId: a.rootId, name: `${tag}-b`, quickFilterId: hiddenFilter, teamIds: `${teamA}:false` });
    expect(hiddenFolder.status, hiddenFolder.text).toBe(200);
    const named = await lib.http.get("/api/v2/file", { token: restricted.token, query: { quickFilterId: hiddenFilter } });
    expect(named.status, named.text).toBe(400);
    expect(named.body.key).toBe("quickFilter.error.notFound");
    expect((await lib.http.get(`/api/quickFilter/${hiddenFilter}`, { token: restricted.token })).status).toBe(404);
    // Core believes "this is a folder's filter" once media's FILE_FOLDER usage event arrived.
    const viaFolder = (await eventually(() => listFiles(restricted.token, hiddenFolder.body.id), (res) => res.status === 200, "folder usage reached core")).body;
    expect(viaFolder.content.map((f: any) => f.name)).toEqual(["in-a.png"]);
    expect((await listFolders(restricted.token, `id=${hiddenFolder.body.id}`, { select: "fileCount" })).body.content[0]?.fileCount).toBe(1);
    // A filtered folder of team B (hidden from the user, like its filter) lends it nothing: its
    // filter is checked as if the user had named it.
    const folderOfB = await createFiltered(owner.token, { parentId: a.rootId, name: `${tag}-bb`, quickFilterId: hiddenFilter, teamIds: `${teamB}:false` });
    expect(folderOfB.status, folderOfB.text).toBe(200);
    const throughHidden = await lib.http.get("/api/v2/file", { token: restricted.token, query: { search: `fileFolderId=${folderOfB.body.id}` } });
    expect(throughHidden.status, throughHidden.text).toBe(400);
    expect(throughHidden.body.key).toBe("quickFilter.error.notFound");
    // The owner may name it.
    expect((await lib.http.get("/api/v2/file", { token: owner.token, query: { quickFilterId: hiddenFilter } })).body.totalElements).toBe(2);
  });
});
