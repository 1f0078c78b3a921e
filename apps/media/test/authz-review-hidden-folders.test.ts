// A folder (or an upload session) a restricted user's teams hide answers as a missing one on
// every write, over HTTP through the gateway: 404, before any other check could tell it exists.
// Document 2, "User": "readOnly, restricted | boolean | restricted = sees only team-assigned
// resources"; document 1: "Filtered (virtual) folders", "Update alpha synced folder settings",
// "Recover | GET /api/v2/file/upload/{uploadId}/recover", "Cancel | DELETE /api/v2/file/upload/{uploadId}".
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, eventually, type TenantUser } from "@signage/testing";
import { multipart, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;
/** Restricted EDITOR and APPROVER, members of team `mine` (writable) and `readable` (read-only); neither is in `theirs`. */
let editor: TenantUser;
let approver: TenantUser;
let mine: string;
let readable: string;
let theirs: string;

const http = () => env.platform.http;
const media = () => env.platform.knexOf("media");

async function team(name: string): Promise<string> {
  const res = await http().post("/api/team/", { token: t.owner.token, body: { name: `${name}-${randomUUID()}` } });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

async function folder(parentId: string, teamId: string, readOnly = false, extra: Record<string, string> = {}, path = "/api/fileFolder/"): Promise<{ id: string }> {
  const res = await http().post(path, { token: t.owner.token, query: { parentId, name: `f-${randomUUID()}`, teamIds: `${teamId}:${readOnly}`, ...extra } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function quickFilter(): Promise<string> {
  const res = await http().post("/api/quickFilter/", { token: t.owner.token, body: { name: `qf-${randomUUID()}`, filteredEntityType: "FILE", criteria: { tags: ["x"] } } });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

const notFound = (res: { status: number; body: any; text: string }, key = "fileFolder.error.notFound") => expect([res.status, res.body.key], res.text).toEqual([404, key]);

beforeAll(async () => {
  env = await startUploadPlatform("authz_review_hidden", { UPLOAD_MAX_CHUNK_SIZE: String(64 * 1024) });
  t = await env.tenant();
  [mine, readable, theirs] = [await team("mine"), await team("readable"), await team("theirs")];
  [editor, approver] = [await createUser(http(), env.admin, t.id, "EDITOR", { restricted: true }), await createUser(http(), env.admin, t.id, "APPROVER", { restricted: true })];
  for (const user of [editor, approver]) {
    const res = await http().post("/api/user/updateTeamAssignments", { token: t.owner.token, query: { email: user.email }, body: { assignToTeams: [{ teamId: mine, readOnly: false }, { teamId: readable, readOnly: true }] } });
    expect(res.status, res.text).toBeLessThan(300);
  }
  const probe = await folder(t.rootId, mine);
  await eventually(() => http().get("/api/v2/fileFolder", { token: editor.token, query: { search: `id=${probe.id}` } }), (r) => r.body.totalElements === 1, "team memberships replicated");
}, 60_000);
afterAll(() => env?.close());

describe("'restricted = sees only team-assigned resources': a hidden folder is not found before anything else is said of it", { timeout: 30_000 }, () => {
  it("synced-folder operations on a hidden folder are 404 (they answered 400 fileFolder.error.notSynced, so its existence showed), as for an unknown id; creating a synced folder in one too (it answered 501)", async () => {
    const hidden = await folder(t.rootId, theirs);
    const visible = await folder(t.rootId, mine);
    const ops: Array<[string, string, Record<string, string | boolean>, unknown?]> = [
      ["PUT", "/api/fileFolder/synchronize", {}],
      ["PUT", "/api/fileFolder/setAutoSync", { autoSync: true }],
      ["PUT", "/api/fileFolder/updateSyncedAlphaDriveFolder", {}, {}],
      ["PUT", "/api/fileFolder/updateSyncedBetaDriveFolder", {}, {}],
      ["PUT", "/api/fileFolder/setIgnoredSubfolders", {}, []],
      ["PUT", "/api/fileFolder/detachAlphaCredential", {}],
      ["PUT", "/api/fileFolder/detachBetaTenant", {}],
      ["PUT", "/api/fileFolder/updateDesignExportFormat", { exportFormat: "PNG", exportStrategy: "WHOLE" }],
    ];
    for (const [method, path, query, body] of ops) {
      const call = (folderId: string) => http().request(method, path, { token: editor.token, query: { folderId, ...query }, body });
      notFound(await call(hidden.id));
      notFound(await call(randomUUID()));
      // The folder the caller sees is still told what it is.
      expect((await call(visible.id)).body.key, path).toBe("fileFolder.error.notSynced");
    }
    const alpha = { alphaCredentialId: "c", alphaFolderId: "f", fileTypes: ["IMAGE"] };
    notFound(await http().post("/api/fileFolder/addSyncedAlphaDriveFolder", { token: editor.token, query: { parentId: hidden.id, name: "synced" }, body: alpha }));
    expect((await http().post("/api/fileFolder/addSyncedAlphaDriveFolder", { token: editor.token, query: { parentId: visible.id, name: "synced" }, body: alpha })).status).toBe(501);
  });

  it("a hidden filtered folder named as parent or target is 404 (it answered 400 fileFolder.error.filteredFolder), for folder create, simple and chunked upload, move and setCleanupOutdatedFiles; one the caller sees is still 400", async () => {
    const qf = await quickFilter();
    const hidden = await folder(t.rootId, theirs, false, { quickFilterId: qf }, "/api/fileFolder/addFilteredFileFolder");
    const visible = await folder(t.rootId, mine, false, { quickFilterId: qf }, "/api/fileFolder/addFilteredFileFolder");
    const file = (await http().post("/api/file", { token: editor.token, query: { parentId: t.rootId, teamIds: `${mine}:false` }, body: multipart([{ name: "files[]", filename: "m.png", type: "image/png", data: png(2, 2) }]) })).body[0];
    const calls = (parentId: string) => [
      http().post("/api/fileFolder/", { token: editor.token, query: { parentId, name: "x", teamIds: `${mine}:false` } }),
      http().post("/api/file", { token: editor.token, query: { parentId, teamIds: `${mine}:false` }, body: multipart([{ name: "files[]", filename: "z.png", type: "image/png", data: png(1, 1) }]) }),
      http().post("/api/v2/file/upload/init", { token: editor.token, query: { teamIds: `${mine}:false` }, body: { name: "c.png", size: 10, totalChunks: 1, contentType: "image/png", parentId } }),
      http().post("/api/fileFolder/moveBatchToFolder", { token: editor.token, body: { targetFolder: { id: parentId }, fileIds: [file.id] } }),
      http().put("/api/fileFolder/setCleanupOutdatedFiles", { token: approver.token, query: { folderId: parentId, cleanupOutdatedFiles: true } }),
    ];
    for (const res of await Promise.all(calls(hidden.id))) notFound(res);
    for (const res of await Promise.all(calls(visible.id))) expect([res.status, res.body.key], res.text).toEqual([400, "fileFolder.error.filteredFolder"]);
    expect(await media()("file_folder").where({ parent_id: hidden.id })).toHaveLength(0);
    expect((await media()("file").where({ id: file.id }).first()).file_folder_id).toBe(t.rootId);
  });

  it("an upload into a hidden folder with teamIds naming no team is 404 (it answered 400 team.error.notFound, which an unknown folder never does)", async () => {
    const hidden = await folder(t.rootId, theirs);
    const teamIds = `${randomUUID()}:false`;
    for (const parentId of [hidden.id, randomUUID()]) {
      notFound(await http().post("/api/file", { token: editor.token, query: { parentId, teamIds }, body: multipart([{ name: "files[]", filename: "z.png", type: "image/png", data: png(1, 1) }]) }));
      notFound(await http().post("/api/v2/file/upload/init", { token: editor.token, query: { teamIds }, body: { name: "c.png", size: 10, totalChunks: 1, contentType: "image/png", parentId } }));
    }
    expect(await media()("upload_session").where({ parent_id: hidden.id })).toHaveLength(0);
  });

  it("moving a folder into itself is 400 only where the caller sees both: a hidden folder moved into its visible subfolder, or a folder into its hidden subfolder, is 404", async () => {
    const hiddenParent = await folder(t.rootId, theirs);
    const visibleChild = await folder(hiddenParent.id, mine);
    const visibleParent = await folder(t.rootId, mine);
    const hiddenChild = await folder(visibleParent.id, theirs);
    const visibleGrandchild = await folder(visibleParent.id, mine);
    const move = (target: string, folderId: string) => http().post("/api/fileFolder/moveBatchToFolder", { token: editor.token, body: { targetFolder: { id: target }, folderIds: [folderId] } });
    notFound(await move(visibleChild.id, hiddenParent.id));
    notFound(await move(hiddenChild.id, visibleParent.id));
    const seen = await move(visibleGrandchild.id, visibleParent.id);
    expect([seen.status, seen.body.key]).toEqual([400, "fileFolder.error.moveIntoItself"]);
    expect((await media()("file_folder").where({ id: hiddenParent.id }).first()).parent_id).toBe(t.rootId);
  });
});

describe("'restricted = sees only team-assigned resources': upload sessions of others", { timeout: 30_000 }, () => {
  const init = (token: string, parentId: string | undefined, teamIds?: string) =>
    http().post("/api/v2/file/upload/init", { token, query: teamIds ? { teamIds } : {}, body: { name: "c.png", size: 10, totalChunks: 1, contentType: "image/png", ...(parentId ? { parentId } : {}) } });
  const part = (token: string, uploadId: string) => http().put(`/api/v2/file/upload/${uploadId}/part/1`, { token, body: png(1, 1).subarray(0, 10), headers: { "content-type": "application/octet-stream" } });
  const recover = (token: string, uploadId: string) => http().get(`/api/v2/file/upload/${uploadId}/recover`, { token });
  const complete = (token: string, uploadId: string) => http().post(`/api/v2/file/upload/${uploadId}/complete`, { token });
  const cancel = (token: string, uploadId: string) => http().delete(`/api/v2/file/upload/${uploadId}`, { token });

  it("a session into a folder the caller's teams hide, or of a file they would hide, is 404 upload.error.sessionNotFound for recover, part, complete and cancel (it was recovered, written to and cancelled); the session stays", async () => {
    const hidden = await folder(t.rootId, theirs);
    const intoHidden = await init(t.owner.token, hidden.id);
    const hiddenFile = await init(t.owner.token, undefined, `${theirs}:false`);
    for (const session of [intoHidden, hiddenFile]) {
      expect(session.status, session.text).toBe(200);
      const id = session.body.uploadId as string;
      for (const res of [await recover(editor.token, id), await part(editor.token, id), await complete(editor.token, id), await cancel(editor.token, id)]) notFound(res, "upload.error.sessionNotFound");
      expect(await media()("upload_session").where({ id }).first()).toBeTruthy();
      expect((await recover(t.owner.token, id)).body.uploadedChunks).toEqual([]);
    }
  });

  it("a session into a folder the caller reads only: recover answers, part and cancel are 403 team.error.readOnly as complete is; one into a folder of its team is the caller's to finish", async () => {
    const readOnly = await folder(t.rootId, readable, true);
    const session = await init(t.owner.token, readOnly.id);
    const id = session.body.uploadId as string;
    expect((await recover(editor.token, id)).status).toBe(200);
    for (const res of [await part(editor.token, id), await cancel(editor.token, id)]) expect([res.status, res.body.key], res.text).toEqual([403, "team.error.readOnly"]);
    expect(await media()("upload_session").where({ id }).first()).toBeTruthy();

    const writable = await folder(t.rootId, mine);
    const shared = (await init(t.owner.token, writable.id, `${mine}:false`)).body.uploadId as string;
    expect((await part(editor.token, shared)).status).toBe(200);
    expect((await recover(editor.token, shared)).body.uploadedChunks).toEqual([1]);
    expect((await cancel(editor.token, shared)).status).toBe(204);
  });

  it("its own session stays the creator's after it left the team: recover and cancel answer", async () => {
    const user = await createUser(http(), env.admin, t.id, "EDITOR", { restricted: true });
    const assign = (body: unknown) => http().post("/api/user/updateTeamAssignments", { token: t.owner.token, query: { email: user.email }, body });
    await assign({ assignToTeams: [{ teamId: mine, readOnly: false }, { teamId: readable, readOnly: true }] });
    const opened = await eventually(() => init(user.token, undefined, `${mine}:false`), (r) => r.status === 200, "membership replicated");
    await assign({ removeFromTeamIds: [mine] });
    const probe = await folder(t.rootId, mine);
    await eventually(() => http().get("/api/v2/fileFolder", { token: user.token, query: { search: `id=${probe.id}` } }), (r) => r.body.totalElements === 0, "leaving replicated");
    expect((await recover(user.token, opened.body.uploadId)).status).toBe(200);
    expect((await cancel(user.token, opened.body.uploadId)).status).toBe(204);
  });
});
