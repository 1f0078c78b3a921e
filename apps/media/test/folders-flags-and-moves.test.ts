// File folder review fixes over HTTP through the gateway: the documented
// boolean sync flags are booleans for every folder, and moving into the root
// obeys the customer's isFileAndFolderCreationEnabledInRootForTeamUsers like
// creating there does.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, eventually, type TenantUser } from "@signage/testing";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let a: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_folder_flags_moves");
  a = await lib.tenant();
}, 60_000);
afterAll(() => lib?.close());

const listFolders = (token: string, search: string) => lib.http.get("/api/v2/fileFolder", { token, query: { search } });

describe("'isRootSyncedFolder, isSyncedAlphaFolder, isSyncedBetaFolder, isSyncedGammaFolder | boolean'", () => {
  it("a folder that is not synced has all four false (present, not missing); a synced one true for its source only", async () => {
    const plain = await lib.folder(a, a.rootId, `plain-${randomUUID()}`);
    const res = await listFolders(a.viewer.token, `id=${plain.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.content[0]).toMatchObject({ isRootSyncedFolder: false, isSyncedAlphaFolder: false, isSyncedBetaFolder: false, isSyncedGammaFolder: false });
    // The root folder too.
    const root = await listFolders(a.viewer.token, "parentId=NULL");
    expect(root.body.content[0]).toMatchObject({ isRootSyncedFolder: false, isSyncedAlphaFolder: false, isSyncedBetaFolder: false, isSyncedGammaFolder: false });

    // Cloud sync does not create folders yet: the stored source is what a synced folder carries.
    const synced = await lib.folder(a, a.rootId, `synced-${randomUUID()}`);
    await lib.knex("file_folder").where({ id: synced.id }).update({ sync_source: "beta" });
    const flags = (await listFolders(a.viewer.token, `id=${synced.id}`)).body.content[0];
    expect(flags).toMatchObject({ isSyncedAlphaFolder: false, isSyncedBetaFolder: true, isSyncedGammaFolder: false });
  });
});

describe("moveBatchToFolder into the root and isFileAndFolderCreationEnabledInRootForTeamUsers", () => {
  let restricted: TenantUser;
  let teamA: string;

  beforeAll(async () => {
    restricted = await createUser(lib.http, lib.admin, a.id, "EDITOR", { restricted: true });
    teamA = (await lib.http.post("/api/team/", { token: a.owner.token, body: { name: `A-${randomUUID()}` } })).body.id;
    const member = await lib.http.post("/api/user/updateTeamAssignments", { token: a.owner.token, query: { email: restricted.email }, body: { assignToTeams: [{ teamId: teamA, readOnly: false }] } });
    expect(member.status, member.text).toBeLessThan(300);
  });

  // Document 2, team access settings: "isFileAndFolderCreationEnabledInRootForTeamUsers (all boolean, default true)".
  it("when false, a team user moving files or folders into the root is refused (403) and nothing moves; other targets, unrestricted users and the default true still allow it", async () => {
    const teamFolder = await lib.folder(a, a.rootId, `team-${randomUUID()}`, { teamIds: `${teamA}:false` });
    const otherTeamFolder = await lib.folder(a, a.rootId, `team2-${randomUUID()}`, { teamIds: `${teamA}:false` });
    const sub = await lib.folder(a, teamFolder.id, "sub", { teamIds: `${teamA}:false` });
    const file = await lib.file(a, { fileFolderId: teamFolder.id });
    const assigned = await lib.http.post("/api/file/updateTeamAssignments", { token: a.owner.token, query: { fileId: file.id }, body: { assignToTeams: [{ teamId: teamA, readOnly: false }] } });
    expect(assigned.status, assigned.text).toBeLessThan(300);
    await eventually(() => listFolders(restricted.token, `id=${sub.id}`), (r) => r.body.content?.length === 1, "team membership replicated");

    const settings = await lib.http.put("/api/customer/settings/teams", { token: a.owner.token, body: { isFileAndFolderCreationEnabledInRootForTeamUsers: false } });
    expect(settings.status, settings.text).toBe(200);
    const move = (token: string, target: string, body: { fileIds?: string[]; folderIds?: string[] }) =>
      lib.http.post("/api/fileFolder/moveBatchToFolder", { token, body: { targetFolder: { id: target }, ...body } });

    // Wait for media's replica of the setting: a move tried before it arrived would succeed (and really move).
    const rootCreation = () => lib.knex("team_settings").where({ customer_id: a.id }).first();
    await eventually(rootCreation, (row) => row?.file_creation_in_root_for_team_users === false, "setting replicated to media");
    const refused = await move(restricted.token, a.rootId, { folderIds: [sub.id] });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.key).toBe("team.error.rootCreationDisabled");
    const fileRefused = await move(restricted.token, a.rootId, { fileIds: [file.id] });
    expect(fileRefused.status, fileRefused.text).toBe(403);
    expect(fileRefused.body.key).toBe("team.error.rootCreationDisabled");
    expect((await lib.knex("file_folder").where({ id: sub.id }).first()).parent_id).toBe(teamFolder.id);
    expect((await lib.knex("file").where({ id: file.id }).first()).file_folder_id).toBe(teamFolder.id);

    // Into a team folder: allowed.
    const inside = await move(restricted.token, otherTeamFolder.id, { fileIds: [file.id], folderIds: [sub.id] });
    expect(inside.status, inside.text).toBe(200);
    // An unrestricted OWNER may still move into the root.
    const byOwner = await move(a.owner.token, a.rootId, { fileIds: [file.id], folderIds: [sub.id] });
    expect(byOwner.status, byOwner.text).toBe(200);
    expect((await lib.knex("file").where({ id: file.id }).first()).file_folder_id).toBe(a.rootId);

    // Back to the default (true): the restricted user may move into the root again.
    await lib.http.put("/api/customer/settings/teams", { token: a.owner.token, body: { isFileAndFolderCreationEnabledInRootForTeamUsers: true } });
    await move(a.owner.token, teamFolder.id, { folderIds: [sub.id] });
    await eventually(rootCreation, (row) => row?.file_creation_in_root_for_team_users === true, "default replicated to media");
    const allowed = await move(restricted.token, a.rootId, { folderIds: [sub.id] });
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body.id).toBe(a.rootId);
  });
});
