// Review fixes to the library's write operations, over HTTP through the gateway
// (document 1 "Endpoints / Files", "Endpoints / Folders"; document 2 "Customer scoping").
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TenantUser } from "@signage/testing";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_write_review");
  [a, b] = await Promise.all([lib.tenant(), lib.tenant()]);
}, 60_000);
afterAll(() => lib?.close());

const row = async (id: string) => lib.knex("file").where({ id }).first();
const eventsNaming = (id: string) => lib.events.filter((e) => JSON.stringify(e.data).includes(id));

async function team(t: Tenant, name: string): Promise<string> {
  const res = await lib.http.post("/api/team/", { token: t.owner.token, body: { name: `${name}-${randomUUID()}` } });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

async function assignFile(t: Tenant, fileId: string, teamId: string) {
  const res = await lib.http.post("/api/file/updateTeamAssignments", { token: t.owner.token, query: { fileId }, body: { assignToTeams: [{ teamId, readOnly: false }] } });
  expect(res.status, res.text).toBeLessThan(300);
}

describe("'Other roles | own tenant | own tenant' (document 2, Customer scoping): replaceFileReference's sourceFileId", () => {
  it("another tenant's file, with teams there or without, is 404 file.error.notFound for a team-restricted APPROVER, exactly as an unknown id; nothing replaced, no event", async () => {
    const restricted: TenantUser = await createUser(lib.http, lib.admin, a.id, "APPROVER", { restricted: true });
    const teamA = await team(a, "A");
    const member = await lib.http.post("/api/user/updateTeamAssignments", { token: a.owner.token, query: { email: restricted.email }, body: { assignToTeams: [{ teamId: teamA, readOnly: false }] } });
    expect(member.status, member.text).toBeLessThan(300);
    const own = await lib.file(a);
    await assignFile(a, own.id, teamA);
    const foreignWithTeam = await lib.file(b);
    await assignFile(b, foreignWithTeam.id, await team(b, "B"));
    const foreignWithout = await lib.file(b);

    // The replaced file is the caller's to write (its team's): the replace itself would go through.
    const replace = (sourceFileId: string, token = restricted.token) =>
      lib.http.put("/api/file/replaceFileReference", { token, query: { fileIdToReplace: own.id, sourceFileId, removeOldFile: true } });
    for (const sourceFileId of [foreignWithTeam.id, foreignWithout.id, randomUUID()]) {
      const res = await replace(sourceFileId);
      // A team lookup before the tenant check answered team.error.resourceNotFound for a foreign file
      // with teams: which ids exist in other tenants was told apart from unknown ones.
      expect(res.status, res.text).toBe(404);
      expect(res.body).toMatchObject({ key: "file.error.notFound", details: { fileId: sourceFileId } });
    }
    expect(await row(own.id)).toBeDefined();
    expect(await row(foreignWithTeam.id)).toBeDefined();
    // The same call with a source of the caller's tenant is served.
    const source = await lib.file(a);
    await assignFile(a, source.id, teamA);
    expect((await replace(source.id)).status).toBe(204);
    const replaced = await lib.eventsOf("media.file.replaced", (e) => e.data.fileIdToReplace === own.id);
    expect(replaced.map((e) => e.data.sourceFileId)).toEqual([source.id]);
    expect(eventsNaming(foreignWithTeam.id)).toEqual([]);
  });
});

describe("'Batch move/delete body: targetFolder (object with id), fileIds (array of string), folderIds (array of string)': a batch naming nothing", () => {
  it("removeBatch and moveBatchToFolder without any id (no body, empty arrays, blank ids, a misspelt key) are 400 fileFolder.error.batchEmpty, not a success that changed nothing", async () => {
    const target = await lib.folder(a, a.rootId, `target-${randomUUID()}`);
    const file = await lib.file(a);
    const bodies: (Record<string, unknown> | undefined)[] = [undefined, {}, { fileIds: [], folderIds: [] }, { fileIds: [" "] }, { fileIDs: [file.id] }];
    for (const body of bodies) {
      const removed = await lib.http.post("/api/fileFolder/removeBatch", { token: a.editor.token, body });
      expect(removed.status, `${JSON.stringify(body)}: ${removed.text}`).toBe(400);
      expect(removed.body).toMatchObject({ key: "fileFolder.error.batchEmpty", details: { parameters: ["fileIds", "folderIds"] } });
      const moved = await lib.http.post("/api/fileFolder/moveBatchToFolder", { token: a.editor.token, body: { targetFolder: { id: target.id }, ...body } });
      expect(moved.status, `${JSON.stringify(body)}: ${moved.text}`).toBe(400);
      expect(moved.body.key).toBe("fileFolder.error.batchEmpty");
    }
    expect((await row(file.id)).file_folder_id).toBe(a.rootId);
    // Naming one id is a batch: served.
    const moved = await lib.http.post("/api/fileFolder/moveBatchToFolder", { token: a.editor.token, body: { targetFolder: { id: target.id }, fileIds: [file.id] } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ id: target.id, fileCount: 1 });
    const removed = await lib.http.post("/api/fileFolder/removeBatch", { token: a.editor.token, body: { fileIds: [file.id] } });
    expect(removed.status, removed.text).toBe(204);
    expect(await row(file.id)).toBeUndefined();
  });
});

describe("'Replace file across all usages ... fileIdToReplace (required), sourceFileId (required)': ids are UUIDs, whatever case the caller writes them in", () => {
  it("the same file named once in capitals is 400 file.error.replaceSameFile: not 'replaced' by itself and then deleted (removeOldFile)", async () => {
    const file = await lib.file(a);
    const res = await lib.http.put("/api/file/replaceFileReference", { token: a.approver.token, query: { fileIdToReplace: file.id.toUpperCase(), sourceFileId: file.id, removeOldFile: true } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.key).toBe("file.error.replaceSameFile");
    expect(await row(file.id)).toBeDefined();
    await new Promise((r) => setTimeout(r, 300));
    expect(eventsNaming(file.id)).toEqual([]);
  });

  it("media.file.replaced (and media.file.deleted) carry the files' stored ids, which consumers match references by, not the caller's capitals", async () => {
    const [old, source] = [await lib.file(a), await lib.file(a)];
    const res = await lib.http.put("/api/file/replaceFileReference", { token: a.approver.token, query: { fileIdToReplace: old.id.toUpperCase(), sourceFileId: source.id.toUpperCase(), removeOldFile: true } });
    expect(res.status, res.text).toBe(204);
    const [replaced] = await lib.eventsOf("media.file.replaced", (e) => e.data.fileIdToReplace.toLowerCase() === old.id);
    expect(replaced.data).toEqual({ fileIdToReplace: old.id, sourceFileId: source.id, removeOldFile: true, teamAssignmentMode: "MERGE" });
    const deleted = await lib.eventsOf("media.file.deleted", (e) => e.data.fileIds.includes(old.id));
    expect(deleted).toHaveLength(1);
  });

  it("a team-restricted APPROVER cannot replace (and delete) a file its team holds read-only, or one its teams hide, by writing its id in capitals: 403 / 404 as in lower case, nothing changed", async () => {
    const restricted: TenantUser = await createUser(lib.http, lib.admin, a.id, "APPROVER", { restricted: true });
    const [teamA, teamB] = [await team(a, "A"), await team(a, "B")];
    const member = await lib.http.post("/api/user/updateTeamAssignments", { token: a.owner.token, query: { email: restricted.email }, body: { assignToTeams: [{ teamId: teamA, readOnly: false }] } });
    expect(member.status, member.text).toBeLessThan(300);
    const readOnly = await lib.file(a);
    const ro = await lib.http.post("/api/file/updateTeamAssignments", { token: a.owner.token, query: { fileId: readOnly.id }, body: { assignToTeams: [{ teamId: teamA, readOnly: true }] } });
    expect(ro.status, ro.text).toBeLessThan(300);
    const hidden = await lib.file(a);
    await assignFile(a, hidden.id, teamB);
    const source = await lib.file(a);
    await assignFile(a, source.id, teamA);

    for (const [target, status, key] of [[readOnly, 403, "team.error.readOnly"], [hidden, 404, "file.error.notFound"]] as const) {
      for (const id of [target.id, target.id.toUpperCase()]) {
        // Before: the team lookup keyed by the caller's spelling found no teams for the capitals (200 and the file deleted).
        const res = await lib.http.put("/api/file/replaceFileReference", { token: restricted.token, query: { fileIdToReplace: id, sourceFileId: source.id, removeOldFile: true } });
        expect([res.status, res.body?.key], `${id}: ${res.text}`).toEqual([status, key]);
      }
      expect(await row(target.id)).toBeDefined();
    }
    await new Promise((r) => setTimeout(r, 300));
    expect([...eventsNaming(readOnly.id), ...eventsNaming(hidden.id)]).toEqual([]);
  });
});

describe("document 2 'restricted = sees only team-assigned resources': a file or folder the caller's teams hide answers as a missing one", () => {
  it("PUT and DELETE on a hidden file, DELETE on a hidden folder: the same 404 body as for an id that does not exist", async () => {
    const restricted: TenantUser = await createUser(lib.http, lib.admin, a.id, "EDITOR", { restricted: true });
    const [mine, other] = [await team(a, "mine"), await team(a, "other")];
    const member = await lib.http.post("/api/user/updateTeamAssignments", { token: a.owner.token, query: { email: restricted.email }, body: { assignToTeams: [{ teamId: mine, readOnly: false }] } });
    expect(member.status, member.text).toBeLessThan(300);
    const hidden = await lib.file(a);
    await assignFile(a, hidden.id, other);
    const hiddenFolder = await lib.folder(a, a.rootId, `hidden-${randomUUID()}`, { teamIds: `${other}:false` });
    const missing = randomUUID();
    const answer = (res: { status: number; body: any }, id: string) => [res.status, res.body?.key, JSON.stringify(res.body?.details).replaceAll(id, "<id>"), res.body?.message?.replaceAll(id, "<id>")];
    const put = (id: string) => lib.http.put(`/api/file/${id}`, { token: restricted.token, body: { name: "x.png" } });
    const del = (id: string) => lib.http.delete(`/api/file/${id}`, { token: restricted.token });
    const delFolder = (id: string) => lib.http.delete(`/api/fileFolder/${id}`, { token: restricted.token });
    for (const call of [put, del]) {
      const [h, m] = [await call(hidden.id), await call(missing)];
      expect(answer(h, hidden.id)).toEqual(answer(m, missing));
      expect(h.body.key).toBe("file.error.notFound");
    }
    const [h, m] = [await delFolder(hiddenFolder.id), await delFolder(missing)];
    expect(answer(h, hiddenFolder.id)).toEqual(answer(m, missing));
    expect(await row(hidden.id)).toBeDefined();
  });
});
