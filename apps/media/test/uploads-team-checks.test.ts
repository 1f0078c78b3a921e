// Team checks of uploads, over HTTP through the gateway. Document 2: a
// restricted user "sees only team-assigned resources", and a file's "readOnly:
// true when caller has no write access" (document 1), so the replace target of
// POST /api/file ("fileIdToReplace, removeOldFile") gets the check of every
// other file write. "Create with teamIds=<id>:<readOnly>": chunked uploads check
// the teams at init and again before assembly, so that "open -> recover: any
// time" and "open -> cancelled" stay possible when complete refuses them.
import { randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, eventually, type TenantUser } from "@signage/testing";
import { multipart, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;
let restricted: TenantUser;
let teamA: string;
let teamB: string;

const http = () => env.platform.http;
const media = () => env.platform.knexOf("media");
const storedBlobs = async () => (await readdir(`${env.blobDir}/files/${t.id}`).catch(() => [] as string[])).sort();

async function upload(token: string, name: string, query: Record<string, string | boolean> = {}) {
  return http().post("/api/file", { token, body: multipart([{ name: "files[]", filename: name, type: "image/png", data: png(3, 2) }]), query });
}

async function team(name: string): Promise<string> {
  const res = await http().post("/api/team/", { token: t.owner.token, body: { name: `${name}-${randomUUID()}` } });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

beforeAll(async () => {
  env = await startUploadPlatform("uploads_team_checks", { UPLOAD_MAX_CHUNK_SIZE: String(64 * 1024) });
  t = await env.tenant();
  restricted = await createUser(http(), env.admin, t.id, "EDITOR", { restricted: true });
  [teamA, teamB] = await Promise.all([team("A"), team("B")]);
  const member = await http().post("/api/user/updateTeamAssignments", { token: t.owner.token, query: { email: restricted.email }, body: { assignToTeams: [{ teamId: teamA, readOnly: false }] } });
  expect(member.status, member.text).toBeLessThan(300);
}, 60_000);
afterAll(() => env?.close());

describe("simple upload with fileIdToReplace: the replaced file's team check", { timeout: 30_000 }, () => {
  it("a restricted EDITOR of team A cannot replace (or delete with removeOldFile) a team-B file: 404 as for any invisible file, before a byte is stored", async () => {
    const b = await upload(t.owner.token, "b.png", { teamIds: `${teamB}:false` });
    expect(b.status, b.text).toBe(200);
    const a = await upload(t.owner.token, "a.png", { teamIds: `${teamA}:false` });
    await eventually(() => http().get("/api/v2/file", { token: restricted.token }), (r) => r.body.content?.some((f: { id: string }) => f.id === a.body[0].id), "team membership replicated");
    const blobsBefore = await storedBlobs();

    const res = await upload(restricted.token, "new.png", { teamIds: `${teamA}:false`, fileIdToReplace: b.body[0].id, removeOldFile: true });
    expect(res.status, res.text).toBe(404);
    expect(res.body.key).toBe("file.error.notFound");
    // The team-B file is untouched, and nothing of the refused upload was kept.
    const owners = await http().get("/api/v2/file", { token: t.owner.token, query: { search: `id=${b.body[0].id}` } });
    expect(owners.body.totalElements).toBe(1);
    expect(await media()("file").where({ customer_id: t.id, name: "new.png" })).toHaveLength(0);
    expect(await storedBlobs()).toEqual(blobsBefore);
  });

  it("a file the caller's team sees read-only is refused with the read-only refusal of other writes (403)", async () => {
    const ro = await upload(t.owner.token, "ro.png", { teamIds: `${teamA}:true` });
    expect(ro.status, ro.text).toBe(200);
    const res = await upload(restricted.token, "new-ro.png", { teamIds: `${teamA}:false`, fileIdToReplace: ro.body[0].id, removeOldFile: true });
    expect(res.status, res.text).toBe(403);
    expect(res.body.key).toBe("team.error.readOnly");
    // The same refusal as a plain update of that file.
    const update = await http().put(`/api/file/${ro.body[0].id}`, { token: restricted.token, body: { name: "renamed.png" } });
    expect(update.status).toBe(403);
    expect(await media()("file").where({ id: ro.body[0].id })).toHaveLength(1);
  });

  it("a writable file of the caller's team is replaced and, with removeOldFile, deleted", async () => {
    const mine = await upload(t.owner.token, "mine.png", { teamIds: `${teamA}:false` });
    const res = await upload(restricted.token, "mine-v2.png", { teamIds: `${teamA}:false`, fileIdToReplace: mine.body[0].id, removeOldFile: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body[0].name).toBe("mine-v2.png");
    expect(await media()("file").where({ id: mine.body[0].id })).toHaveLength(0);
  });
});

describe("chunked upload teamIds", { timeout: 30_000 }, () => {
  const init = (token: string, query: Record<string, string>, body: Record<string, unknown> = {}) =>
    http().post("/api/v2/file/upload/init", { token, query, body: { name: "clip.mp4", size: 20, totalChunks: 1, contentType: "video/mp4", ...body } });
  const sessions = () => media()("upload_session").where({ customer_id: t.id });

  it("an unknown team id is refused at init with 400 and nothing is created", async () => {
    const before = (await sessions()).length;
    for (const teamIds of [`${randomUUID()}:false`, "not-a-team:true", `${teamA}:false,${randomUUID()}:false`]) {
      const res = await init(t.editor.token, { teamIds });
      expect(res.status, res.text).toBe(400);
      expect(res.body.key).toBe("team.error.notFound");
    }
    expect(await sessions()).toHaveLength(before);
    // A known team is fine, and complete assigns it.
    const ok = await init(t.editor.token, { teamIds: `${teamA}:true` });
    expect(ok.status, ok.text).toBe(200);
    await http().put(`/api/v2/file/upload/${ok.body.uploadId}/part/1`, { token: t.editor.token, body: Buffer.alloc(20, 1), headers: { "content-type": "application/octet-stream" } });
    const done = await http().post(`/api/v2/file/upload/${ok.body.uploadId}/complete`, { token: t.editor.token });
    expect(done.status, done.text).toBe(200);
    expect(await media()("team_assignment").where({ resource_id: done.body.id })).toMatchObject([{ team_id: teamA, read_only: true }]);
  });

  it("a team deleted after init fails complete with 400 before assembly; the session stays open with its chunks (recover, then cancel)", async () => {
    const doomed = await team("doomed");
    const opened = await init(t.editor.token, { teamIds: `${doomed}:false` });
    expect(opened.status, opened.text).toBe(200);
    const { uploadId } = opened.body;
    const part = await http().put(`/api/v2/file/upload/${uploadId}/part/1`, { token: t.editor.token, body: Buffer.alloc(20, 7), headers: { "content-type": "application/octet-stream" } });
    expect(part.status, part.text).toBe(200);
    expect((await http().delete(`/api/team/${doomed}`, { token: t.owner.token })).status).toBeLessThan(300);
    await eventually(() => media()("team").where({ id: doomed }), (rows) => rows.length === 0, "team.deleted replicated to media");

    const complete = await http().post(`/api/v2/file/upload/${uploadId}/complete`, { token: t.editor.token });
    expect(complete.status, complete.text).toBe(400);
    expect(complete.body.key).toBe("team.error.notFound");
    // "open -> recover: any time": the chunk is still there, the session open again.
    const recovered = await http().get(`/api/v2/file/upload/${uploadId}/recover`, { token: t.editor.token });
    expect(recovered.status, recovered.text).toBe(200);
    expect(recovered.body).toMatchObject({ uploadId, uploadedChunks: [1], missingChunks: [] });
    const session = await media()("upload_session").where({ id: uploadId }).first();
    expect(session.state).toBe("open");
    expect(await media()("file").where({ id: session.file_id })).toHaveLength(0);
    // "open -> cancelled: cancel (DELETE); any time; resources cleaned up".
    expect((await http().delete(`/api/v2/file/upload/${uploadId}`, { token: t.editor.token })).status).toBe(204);
  });
});

// A restricted team-A user uploading a file only team B (or, where the customer hides items without
// a team, no team) holds: the file was stored and the answer was 404 (the read-back could not see
// it), so a retry stored it again and its required thumbnail could never be uploaded. Document 2:
// "restricted = sees only team-assigned resources"; what it creates must be among them.
describe("a restricted user creates only what its teams show", { timeout: 30_000 }, () => {
  const init = (token: string, query: Record<string, string> = {}, body: Record<string, unknown> = {}) =>
    http().post("/api/v2/file/upload/init", { token, query, body: { name: "clip.mp4", size: 20, totalChunks: 1, contentType: "video/mp4", ...body } });
  const expectHidden = (res: { status: number; body: any; text: string }, what: string) => {
    expect(res.status, `${what}: ${res.text}`).toBe(400);
    expect(res.body.key, what).toBe("team.error.notVisibleToCreator");
    expect(res.body.details.fields, what).toBe("teamIds");
  };

  it("an upload, a chunked upload's init or a folder held only by a team the creator is not in: 400 team.error.notVisibleToCreator before anything is stored; with its own team: created and answered", async () => {
    await eventually(() => upload(restricted.token, "probe.png", { teamIds: `${teamA}:false` }), (r) => r.status === 200, "team membership replicated");
    const blobsBefore = await storedBlobs();
    const sessionsBefore = (await media()("upload_session").where({ customer_id: t.id })).length;
    expectHidden(await upload(restricted.token, "hidden.png", { teamIds: `${teamB}:false` }), "simple upload");
    expectHidden(await init(restricted.token, { teamIds: `${teamB}:false` }), "chunked init");
    expectHidden(await http().post("/api/fileFolder/", { token: restricted.token, query: { parentId: t.rootId, name: "hidden", teamIds: `${teamB}:false` } }), "folder create");
    expect(await media()("file").where({ customer_id: t.id, name: "hidden.png" })).toHaveLength(0);
    expect(await media()("file_folder").where({ customer_id: t.id, name: "hidden" })).toHaveLength(0);
    expect(await storedBlobs()).toEqual(blobsBefore);
    expect(await media()("upload_session").where({ customer_id: t.id })).toHaveLength(sessionsBefore);

    const both = await upload(restricted.token, "shared.png", { teamIds: `${teamA}:false,${teamB}:false` });
    expect(both.status, both.text).toBe(200);
    expect(both.body[0]).toMatchObject({ name: "shared.png" });
    // A team the creator reads only would leave it unable to finish or change the file.
    const readOnly = await upload(restricted.token, "read-only.png", { teamIds: `${teamA}:true` });
    expect([readOnly.status, readOnly.body.key], readOnly.text).toEqual([400, "team.error.notWritableByCreator"]);
    // An owner (full team access) may hand a file to any team.
    expect((await upload(t.owner.token, "for-b.png", { teamIds: `${teamB}:false` })).status).toBe(200);
  });

  it("chunked complete checks again for the caller completing: a session opened for team A, completed after the user left team A, is refused (400) while it can still be recovered or cancelled", async () => {
    const u = await env.tenant();
    const user = await createUser(http(), env.admin, u.id, "EDITOR", { restricted: true });
    const [mine, other] = await Promise.all(["mine", "other"].map(async (name) => (await http().post("/api/team/", { token: u.owner.token, body: { name: `${name}-${randomUUID()}` } })).body.id as string));
    // Two teams: left with one, the user stays team-restricted (in no team, userFullAccessIfNotInTeam would give it everything).
    const membership = (assign: boolean) =>
      http().post("/api/user/updateTeamAssignments", {
        token: u.owner.token,
        query: { email: user.email },
        body: assign ? { assignToTeams: [{ teamId: mine, readOnly: false }, { teamId: other, readOnly: false }] } : { removeFromTeamIds: [mine] },
      });
    expect((await membership(true)).status).toBeLessThan(300);
    const probe = await eventually(() => upload(user.token, "probe.png", { teamIds: `${mine}:false` }), (r) => r.status === 200, "team membership replicated");
    const opened = await init(user.token, { teamIds: `${mine}:false` });
    expect(opened.status, opened.text).toBe(200);
    const uploadId = opened.body.uploadId as string;
    expect((await http().put(`/api/v2/file/upload/${uploadId}/part/1`, { token: user.token, body: Buffer.alloc(20, 1), headers: { "content-type": "application/octet-stream" } })).status).toBeLessThan(300);
    expect((await membership(false)).status).toBeLessThan(300);
    await eventually(() => http().get("/api/v2/file", { token: user.token, query: { search: `id=${probe.body[0].id}` } }), (r) => r.body.totalElements === 0, "membership change replicated");
    const refused = await http().post(`/api/v2/file/upload/${uploadId}/complete`, { token: user.token });
    expect([refused.status, refused.body.key], refused.text).toEqual([400, "team.error.notVisibleToCreator"]);
    expect(await media()("file").where({ customer_id: u.id, name: "clip.mp4" })).toHaveLength(0);
    expect((await http().get(`/api/v2/file/upload/${uploadId}/recover`, { token: user.token })).status).toBe(200);
  });

  it("where the customer hides items without a team (accessResourcesWithoutTeam false): an item without one is refused to its restricted creator, and the root (shown to it, its team-less contents not) is named as parentId as it is left out (isFileAndFolderCreationEnabledInRootForTeamUsers)", async () => {
    const u = await env.tenant();
    const user = await createUser(http(), env.admin, u.id, "EDITOR", { restricted: true });
    const own = (await http().post("/api/team/", { token: u.owner.token, body: { name: `own-${randomUUID()}` } })).body.id as string;
    expect((await http().post("/api/user/updateTeamAssignments", { token: u.owner.token, query: { email: user.email }, body: { assignToTeams: [{ teamId: own, readOnly: false }] } })).status).toBeLessThan(300);
    expect((await http().put("/api/customer/settings/teams", { token: u.owner.token, body: { accessResourcesWithoutTeam: false } })).status).toBe(200);
    await eventually(() => media()("team_settings").where({ customer_id: u.id }).first(), (row) => row?.access_resources_without_team === false, "setting replicated to media");
    // "To create something in the root, first read the root id (filter parentId=NULL ...)": the root itself stays shown.
    await eventually(() => http().get("/api/v2/fileFolder", { token: user.token, query: { search: "parentId=NULL" } }), (r) => r.body.totalElements === 1 && r.body.content[0].id === u.rootId, "the root shown to the restricted user");
    const withTeam = { teamIds: `${own}:false` };
    await eventually(() => upload(user.token, "probe.png", withTeam), (r) => r.status === 200, "team membership replicated");

    expectHidden(await upload(user.token, "no-team.png"), "simple upload without a team");
    expectHidden(await init(user.token), "chunked init without a team");
    expect((await upload(user.token, "in-root.png", { ...withTeam, parentId: u.rootId })).status, "simple upload naming the root").toBe(200);
    expect((await init(user.token, withTeam, { parentId: u.rootId })).status, "chunked init naming the root").toBe(200);
    const folder = await http().post("/api/fileFolder/", { token: user.token, query: { parentId: u.rootId, name: "team-folder", ...withTeam } });
    expect(folder.status, folder.text).toBe(200);
    expect(folder.body).toMatchObject({ name: "team-folder", parentId: u.rootId });
    // Without teamIds of its own, an item inheriting its folder's team is visible: allowed.
    const inherited = await upload(user.token, "inherits.png", { parentId: folder.body.id, inheritParentTeams: true });
    expect(inherited.status, inherited.text).toBe(200);
    expectHidden(await upload(user.token, "inherits-not.png", { parentId: folder.body.id }), "the same without inheritParentTeams");

    // A root an OWNER gave the user's team read-only stays read-only for it.
    const rootTeams = await http().post("/api/fileFolder/updateTeamAssignments", { token: u.owner.token, query: { fileFolderId: u.rootId }, body: { assignToTeams: [{ teamId: own, readOnly: true }] } });
    expect(rootTeams.status, rootTeams.text).toBeLessThan(300);
    for (const [what, res] of [
      ["naming the root", await upload(user.token, "ro-root.png", { ...withTeam, parentId: u.rootId })],
      ["leaving the parent out", await upload(user.token, "ro-root-2.png", withTeam)],
      ["chunked init leaving the parent out", await init(user.token, withTeam)],
    ] as const) {
      expect([res.status, res.body.key], `${what}: ${res.text}`).toEqual([403, "team.error.readOnly"]);
    }
  });
});
