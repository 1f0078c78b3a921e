// The customer's root folder for team users whose customer hides items without a team
// (document 2, team access settings: "userFullAccessIfNotInTeam, accessResourcesWithoutTeam,
// ..., isFileAndFolderCreationEnabledInRootForTeamUsers (all boolean, default true)"), over HTTP
// through the gateway. The root itself stays where document 1 says to find it (parentId=NULL)
// and where the breadcrumb starts; what it holds without a team stays hidden; moving into it
// follows the rule of creating in it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, eventually, type TenantUser } from "@signage/testing";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let a: Tenant;
let restricted: TenantUser;
let teamA: string;
let teamFolder: string;

const listFolders = (token: string, query: Record<string, string | boolean>) => lib.http.get("/api/v2/fileFolder", { token, query });
const ids = (res: { body: { content?: { id: string }[] } }) => (res.body.content ?? []).map((f) => f.id);
const settingsRow = () => lib.knex("team_settings").where({ customer_id: a.id }).first();

async function rootCreation(enabled: boolean) {
  const res = await lib.http.put("/api/customer/settings/teams", { token: a.owner.token, body: { isFileAndFolderCreationEnabledInRootForTeamUsers: enabled } });
  expect(res.status, res.text).toBe(200);
  await eventually(settingsRow, (row) => row?.file_creation_in_root_for_team_users === enabled, "setting replicated to media");
}

async function teamFile(folderId: string) {
  const file = await lib.file(a, { fileFolderId: folderId });
  const res = await lib.http.post("/api/file/updateTeamAssignments", { token: a.owner.token, query: { fileId: file.id }, body: { assignToTeams: [{ teamId: teamA, readOnly: false }] } });
  expect(res.status, res.text).toBeLessThan(300);
  return file;
}

const move = (target: string, body: { fileIds?: string[]; folderIds?: string[] }) =>
  lib.http.post("/api/fileFolder/moveBatchToFolder", { token: restricted.token, body: { targetFolder: { id: target }, ...body } });

beforeAll(async () => {
  lib = await startLibrary("media_root_team_users");
  a = await lib.tenant();
  restricted = await createUser(lib.http, lib.admin, a.id, "EDITOR", { restricted: true });
  teamA = (await lib.http.post("/api/team/", { token: a.owner.token, body: { name: `A-${randomUUID()}` } })).body.id;
  const member = await lib.http.post("/api/user/updateTeamAssignments", { token: a.owner.token, query: { email: restricted.email }, body: { assignToTeams: [{ teamId: teamA, readOnly: false }] } });
  expect(member.status, member.text).toBeLessThan(300);
  teamFolder = (await lib.folder(a, a.rootId, `team-${randomUUID()}`, { teamIds: `${teamA}:false` })).id;
  const hide = await lib.http.put("/api/customer/settings/teams", { token: a.owner.token, body: { accessResourcesWithoutTeam: false } });
  expect(hide.status, hide.text).toBe(200);
  await eventually(settingsRow, (row) => row?.access_resources_without_team === false, "accessResourcesWithoutTeam replicated to media");
  await eventually(() => listFolders(restricted.token, { search: `id=${teamFolder}` }), (r) => r.body.content?.length === 1, "team membership replicated");
}, 60_000);
afterAll(() => lib?.close());

describe("accessResourcesWithoutTeam false: the root folder of a restricted team user", { timeout: 30_000 }, () => {
  // Document 1: "Root folder: auto-created per customer, has no name and parentId null, cannot be deleted.
  // To create something in the root, first read the root id (filter parentId=NULL; ADMIN also passes customerId)".
  it("'first read the root id (filter parentId=NULL ...)': the restricted EDITOR finds the root, writable while creating there is enabled, and creates in it", async () => {
    const root = await listFolders(restricted.token, { search: "parentId=NULL", select: "id,name,parentId,readOnly" });
    expect(root.status, root.text).toBe(200);
    expect(root.body.totalElements).toBe(1);
    expect(root.body.content).toEqual([{ id: a.rootId, parentId: null, readOnly: false }]);
    // "... null cannot be passed as parent": the id read is the one creating takes.
    const created = await lib.http.post("/api/fileFolder/", { token: restricted.token, query: { parentId: root.body.content[0].id, name: `mine-${randomUUID()}`, teamIds: `${teamA}:false` } });
    expect(created.status, created.text).toBe(200);
    expect(created.body.parentId).toBe(a.rootId);
  });

  // Document 2: "accessResourcesWithoutTeam" (false): the root is shown, not what it holds without a team.
  it("the root's folders and files without a team stay hidden: not in the root's children, not in a plain list, not counted in the root's fileCount", async () => {
    const looseFolder = await lib.folder(a, a.rootId, `loose-${randomUUID()}`);
    const looseFile = await lib.file(a);
    const mine = await teamFile(a.rootId);

    const children = await listFolders(restricted.token, { search: `parentId=${a.rootId}` });
    expect(children.status, children.text).toBe(200);
    expect(ids(children)).toContain(teamFolder);
    expect(ids(children)).not.toContain(looseFolder.id);
    const all = await listFolders(restricted.token, { size: "500" });
    expect(ids(all)).toContain(a.rootId);
    expect(ids(all)).not.toContain(looseFolder.id);
    expect((await listFolders(restricted.token, { search: `id=${looseFolder.id}` })).body.totalElements).toBe(0);
    // Searching for the root's own absent name finds nothing more than it.
    expect(ids(await listFolders(restricted.token, { search: "parentId=NULL" }))).toEqual([a.rootId]);

    const files = await lib.http.get("/api/v2/file", { token: restricted.token, query: { search: `fileFolderId=${a.rootId}` } });
    expect(files.status, files.text).toBe(200);
    expect(ids(files)).toEqual([mine.id]);
    expect(ids(files)).not.toContain(looseFile.id);
    const counted = await listFolders(restricted.token, { search: `id=${a.rootId}`, select: "id,fileCount" });
    expect(counted.body.content).toEqual([{ id: a.rootId, fileCount: 1 }]);
    // The unrestricted OWNER still sees all of it.
    expect(ids(await listFolders(a.owner.token, { search: `parentId=${a.rootId}`, size: "500" }))).toEqual(expect.arrayContaining([teamFolder, looseFolder.id]));
  });

  // Document 1: "Breadcrumb: object with `fileFolders` (array of folders from root to the requested folder)".
  it("'Breadcrumb: ... from root to the requested folder': a team folder's breadcrumb starts at the root", async () => {
    const sub = await lib.folder(a, teamFolder, `sub-${randomUUID()}`, { teamIds: `${teamA}:false` });
    const crumbs = await lib.http.get("/api/v2/fileFolder/breadcrumb", { token: restricted.token, query: { folderId: sub.id } });
    expect(crumbs.status, crumbs.text).toBe(200);
    expect(crumbs.body.fileFolders.map((f: { id: string }) => f.id)).toEqual([a.rootId, teamFolder, sub.id]);
    expect(crumbs.body.fileFolders[0]).toMatchObject({ id: a.rootId, parentId: null, readOnly: false });
  });

  // Document 2: "isFileAndFolderCreationEnabledInRootForTeamUsers (all boolean, default true)"; document 1: "To create
  // something in the root, first read the root id": moving into the root creates there as creating does.
  it("moving into the root follows creating in it: allowed with isFileAndFolderCreationEnabledInRootForTeamUsers true; 403 team.error.rootCreationDisabled with it false, nothing moved, and the root shown readOnly", async () => {
    const folder = await lib.folder(a, teamFolder, `moving-${randomUUID()}`, { teamIds: `${teamA}:false` });
    const file = await teamFile(teamFolder);

    const allowed = await move(a.rootId, { fileIds: [file.id], folderIds: [folder.id] });
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body).toMatchObject({ id: a.rootId, parentId: null, readOnly: false });
    expect((await lib.knex("file_folder").where({ id: folder.id }).first()).parent_id).toBe(a.rootId);
    expect((await lib.knex("file").where({ id: file.id }).first()).file_folder_id).toBe(a.rootId);
    expect((await move(teamFolder, { fileIds: [file.id], folderIds: [folder.id] })).status).toBe(200);

    await rootCreation(false);
    try {
      const root = await listFolders(restricted.token, { search: "parentId=NULL", select: "id,readOnly" });
      expect(root.body.content).toEqual([{ id: a.rootId, readOnly: true }]);
      for (const body of [{ folderIds: [folder.id] }, { fileIds: [file.id] }]) {
        const refused = await move(a.rootId, body);
        expect([refused.status, refused.body.key], refused.text).toEqual([403, "team.error.rootCreationDisabled"]);
      }
      expect((await lib.knex("file_folder").where({ id: folder.id }).first()).parent_id).toBe(teamFolder);
      expect((await lib.knex("file").where({ id: file.id }).first()).file_folder_id).toBe(teamFolder);
      // As creating there is.
      const create = await lib.http.post("/api/fileFolder/", { token: restricted.token, query: { parentId: a.rootId, name: `no-${randomUUID()}`, teamIds: `${teamA}:false` } });
      expect([create.status, create.body.key], create.text).toEqual([403, "team.error.rootCreationDisabled"]);
    } finally {
      await rootCreation(true);
    }
  });
});
