// Review fixes to the bulk file operations and the file list's sort, over HTTP through
// the gateway (document 1 "Endpoints / Files", "Errors"; document 2 "Paging, projection,
// common list parameters").
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, eventually, type TenantUser } from "@signage/testing";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let t: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_bulk_review");
  t = await lib.tenant();
}, 60_000);
afterAll(() => lib?.close());

const row = async (id: string) => lib.knex("file").where({ id }).first();

async function quickFilter(token: string, criteria: Record<string, unknown>, query: Record<string, string> = {}) {
  const res = await lib.http.post("/api/quickFilter/", { token, query, body: { name: `qf-${randomUUID()}`, filteredEntityType: "FILE", criteria } });
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
}

async function filteredFolder(token: string, quickFilterId: string, query: Record<string, string> = {}) {
  const res = await lib.http.post("/api/fileFolder/addFilteredFileFolder", { token, query: { parentId: t.rootId, name: `filtered-${randomUUID()}`, quickFilterId, ...query } });
  expect(res.status, res.text).toBe(200);
  expect(res.body.fileFolderType).toBe(2);
  return res.body.id as string;
}

const listed = async (token: string, search: string) => {
  const res = await lib.http.get("/api/v2/file", { token, query: { search, size: 100 } });
  expect(res.status, res.text).toBe(200);
  return res.body.content.map((f: { id: string }) => f.id).sort();
};

describe("'Bulk operations act on the files matched by search': a filtered folder (fileFolderType 2) in search matches what the file list shows for it", () => {
  it("tags/add, tags/remove, tags/set and validity/set with search=fileFolderId=<filtered folder> change exactly the quick filter's files (alone and ANDed with another term)", async () => {
    const tag = `sel-${randomUUID().slice(0, 8)}`;
    const stored = await lib.folder(t, t.rootId, `stored-${tag}`);
    const inRoot = await lib.file(t, { name: `${tag}-a.png`, tags: [tag] });
    const inStored = await lib.file(t, { name: `${tag}-b.png`, tags: [tag], fileFolderId: stored.id });
    const other = await lib.file(t, { name: `${tag}-other.png`, tags: ["other"] });
    const folder = await filteredFolder(t.editor.token, await quickFilter(t.editor.token, { tags: [tag] }));
    const search = `fileFolderId=${folder}`;
    expect(await listed(t.viewer.token, search)).toEqual([inRoot.id, inStored.id].sort());

    const tags = (op: string, body: string[], s = search) => lib.http.post(`/api/v2/file/tags/${op}`, { token: t.editor.token, query: { search: s }, body });
    const added = await tags("add", ["bulk"]);
    expect(added.status, added.text).toBeLessThan(300);
    expect((await row(inRoot.id)).tags).toEqual([tag, "bulk"]);
    expect((await row(inStored.id)).tags).toEqual([tag, "bulk"]);
    expect((await row(other.id)).tags).toEqual(["other"]);

    expect((await tags("remove", ["bulk"])).status).toBeLessThan(300);
    expect((await row(inRoot.id)).tags).toEqual([tag]);
    expect((await row(inStored.id)).tags).toEqual([tag]);

    // ANDed with the rest of search, as in the list.
    const narrowed = `${search},name=${tag}-b.png`;
    expect(await listed(t.viewer.token, narrowed)).toEqual([inStored.id]);
    expect((await tags("set", [tag, "only-b"], narrowed)).status).toBeLessThan(300);
    expect((await row(inStored.id)).tags).toEqual([tag, "only-b"]);
    expect((await row(inRoot.id)).tags).toEqual([tag]);
    expect((await row(other.id)).tags).toEqual(["other"]);

    const validity = await lib.http.post("/api/v2/file/validity/set", { token: t.approver.token, query: { search, validFrom: 10, validTo: 20 } });
    expect(validity.status, validity.text).toBeLessThan(300);
    expect(await row(inRoot.id)).toMatchObject({ valid_from: 10, valid_to: 20 });
    expect(await row(inStored.id)).toMatchObject({ valid_from: 10, valid_to: 20 });
    expect((await row(other.id)).valid_from).toBeNull();
  });

  it("with the list's team visibility: a restricted user in team A tags only team A's files of a team-A filtered folder, and a team-B folder's hidden filter is refused as in the list (400 quickFilter.error.notFound)", async () => {
    const owner = t.owner;
    const restricted: TenantUser = await createUser(lib.http, lib.admin, t.id, "EDITOR", { restricted: true });
    const team = async (name: string) => (await lib.http.post("/api/team/", { token: owner.token, body: { name: `${name}-${randomUUID()}` } })).body.id as string;
    const [teamA, teamB] = [await team("A"), await team("B")];
    const member = await lib.http.post("/api/user/updateTeamAssignments", { token: owner.token, query: { email: restricted.email }, body: { assignToTeams: [{ teamId: teamA, readOnly: false }] } });
    expect(member.status, member.text).toBeLessThan(300);
    await eventually(() => lib.knex("team").whereIn("id", [teamA, teamB]), (rows) => rows.length === 2, "teams replicated to media");

    const tag = `team-${randomUUID().slice(0, 8)}`;
    const assigned = async (name: string, teamId: string) => {
      const file = await lib.file(t, { name, tags: [tag] });
      const res = await lib.http.post("/api/file/updateTeamAssignments", { token: owner.token, query: { fileId: file.id }, body: { assignToTeams: [{ teamId, readOnly: false }] } });
      expect(res.status, res.text).toBeLessThan(300);
      return file;
    };
    const inA = await assigned(`${tag}-a.png`, teamA);
    const inB = await assigned(`${tag}-b.png`, teamB);
    const folder = await filteredFolder(owner.token, await quickFilter(owner.token, { tags: [tag] }), { teamIds: `${teamA}:false` });
    const search = `fileFolderId=${folder}`;
    await eventually(() => listed(restricted.token, search), (ids) => ids.length === 1, "restricted user's file list");
    expect(await listed(restricted.token, search)).toEqual([inA.id]);

    const added = await lib.http.post("/api/v2/file/tags/add", { token: restricted.token, query: { search }, body: ["mine"] });
    expect(added.status, added.text).toBeLessThan(300);
    expect((await row(inA.id)).tags).toEqual([tag, "mine"]);
    expect((await row(inB.id)).tags).toEqual([tag]);

    const hiddenFilter = await quickFilter(owner.token, { tags: [tag] }, { teamIds: `${teamB}:false` });
    const folderOfB = await filteredFolder(owner.token, hiddenFilter, { teamIds: `${teamB}:false` });
    const listHidden = await lib.http.get("/api/v2/file", { token: restricted.token, query: { search: `fileFolderId=${folderOfB}` } });
    expect([listHidden.status, listHidden.body.key]).toEqual([400, "quickFilter.error.notFound"]);
    const bulkHidden = await lib.http.post("/api/v2/file/tags/add", { token: restricted.token, query: { search: `fileFolderId=${folderOfB}` }, body: ["hidden"] });
    expect([bulkHidden.status, bulkHidden.body.key]).toEqual([400, "quickFilter.error.notFound"]);
    expect((await row(inA.id)).tags).toEqual([tag, "mine"]);
    expect((await row(inB.id)).tags).toEqual([tag]);
  });
});

describe("'Bulk operations act on the files matched by search': the files are named by search", () => {
  it("a bulk write without the search parameter is 400 request.error.missingParameter naming search, a misspelt one (serach=) 400 request.error.unknownParameter; nothing changes; search= with no value is every file of the customer", async () => {
    const u = await lib.tenant();
    const [one, two] = [await lib.file(u, { tags: ["keep"] }), await lib.file(u, { tags: ["keep"] })];
    for (const [path, body, token] of [["/api/v2/file/tags/set", ["gone"], u.editor.token], ["/api/v2/file/tags/add", ["x"], u.editor.token], ["/api/v2/file/tags/remove", ["keep"], u.editor.token], ["/api/v2/file/validity/set", undefined, u.approver.token]] as const) {
      const extra = body ? {} : { validFrom: 5 };
      const missing = await lib.http.post(path, { token, query: extra, ...(body ? { body } : {}) });
      expect([missing.status, missing.body.key, missing.body.details], `${path}: ${missing.text}`).toEqual([400, "request.error.missingParameter", { parameter: "search" }]);
      const misspelt = await lib.http.post(path, { token, query: { serach: `id=${one.id}`, ...extra }, ...(body ? { body } : {}) });
      expect([misspelt.status, misspelt.body.key, misspelt.body.details?.parameter], `${path}: ${misspelt.text}`).toEqual([400, "request.error.unknownParameter", "serach"]);
    }
    expect((await row(one.id)).tags).toEqual(["keep"]);
    expect((await row(two.id)).valid_from).toBeNull();
    const all = await lib.http.post("/api/v2/file/tags/set", { token: u.editor.token, query: { search: "" }, body: ["all"] });
    expect(all.status, all.text).toBe(204);
    expect([(await row(one.id)).tags, (await row(two.id)).tags]).toEqual([["all"], ["all"]]);
  });
});

describe("POST /api/v2/file/validity/set: 'query search, validFrom, validTo (int64)'", () => {
  it("neither validFrom nor validTo is refused (400 file.error.validityRequired, common error body) and changes nothing; one bound alone still applies", async () => {
    const f = await lib.file(t, { name: "vr-1.png", validFrom: 100, validTo: 200 });
    const set = (query: Record<string, number>) => lib.http.post("/api/v2/file/validity/set", { token: t.approver.token, query: { search: "name^vr-", ...query } });

    const none = await set({});
    expect(none.status, none.text).toBe(400);
    expect(none.body).toMatchObject({
      status: 400,
      error: "Bad Request",
      key: "file.error.validityRequired",
      message: expect.stringMatching(/at least one of validFrom and validTo/i),
      details: { parameters: ["validFrom", "validTo"] },
    });
    expect(await row(f.id)).toMatchObject({ valid_from: 100, valid_to: 200 });

    expect((await set({ validFrom: 150 })).status).toBeLessThan(300);
    expect(await row(f.id)).toMatchObject({ valid_from: 150, valid_to: 200 });
    expect((await set({ validTo: 300 })).status).toBeLessThan(300);
    expect(await row(f.id)).toMatchObject({ valid_from: 150, valid_to: 300 });
  });
});

describe("GET /api/v2/file: 'sort: field,direction; repeatable; nested fields allowed' ('creator | object | has `email` and `name`')", () => {
  it("creator.email and creator.name sort; an unknown key below creator (creator.bogus) is 400 sort.error.unknownField like any unknown field, not a sort on NULL", async () => {
    const s = await lib.tenant();
    await lib.file(s, { name: "one.png", creator: { email: "b@x.test", name: "Zed" } });
    await lib.file(s, { name: "two.png", creator: { email: "a@x.test", name: "Amy" } });
    const sorted = (sort: string) => lib.http.get("/api/v2/file", { token: s.viewer.token, query: { sort, select: "name" } });
    const byEmail = await sorted("creator.email,asc");
    expect(byEmail.status, byEmail.text).toBe(200);
    expect(byEmail.body.content.map((f: { name: string }) => f.name)).toEqual(["two.png", "one.png"]);
    expect((await sorted("creator.name,desc")).body.content.map((f: { name: string }) => f.name)).toEqual(["one.png", "two.png"]);

    for (const sort of ["creator.bogus,asc", "creator.email.x,desc", "creator.Email,asc"]) {
      const res = await sorted(sort);
      expect([res.status, res.body.key], sort).toEqual([400, "sort.error.unknownField"]);
      expect(res.body).toMatchObject({ status: 400, error: "Bad Request", details: { parameter: "sort", field: sort.split(",")[0], knownFields: ["creator.email", "creator.name"] } });
    }
    // A top-level unknown field offers creator's sortable keys among the fields sort accepts.
    const unknown = await sorted("nosuch,asc");
    expect([unknown.status, unknown.body.key]).toEqual([400, "sort.error.unknownField"]);
    expect(unknown.body.details.knownFields).toEqual(expect.arrayContaining(["name", "creator.email", "creator.name"]));
  });
});

describe("'Batch operations ... require customerId': a customer that does not exist", () => {
  it("tags/add and validity/set for an ADMIN naming an unknown customerId answer 404 customer.error.notFound (were 204, nothing done)", async () => {
    const tags = await lib.http.post("/api/v2/file/tags/add", { token: lib.admin, query: { customerId: 987654, search: "" }, body: ["x"] });
    expect([tags.status, tags.body.key], tags.text).toEqual([404, "customer.error.notFound"]);
    const validity = await lib.http.post("/api/v2/file/validity/set", { token: lib.admin, query: { customerId: 987654, search: "", validTo: 4102444800000 } });
    expect([validity.status, validity.body.key], validity.text).toEqual([404, "customer.error.notFound"]);
    // A real customer named by the ADMIN still works.
    const ok = await lib.http.post("/api/v2/file/tags/add", { token: lib.admin, query: { customerId: t.id, search: "name=no-such-file" }, body: ["x"] });
    expect(ok.status, ok.text).toBe(204);
  });
});
