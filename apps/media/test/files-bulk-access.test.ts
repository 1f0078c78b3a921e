// Who a bulk call by search may touch, over HTTP through the gateway (document 1
// "Add / remove / set tags on many files", "Set validity on many files"; document 2
// "Customer scoping", "User": restricted = "sees only team-assigned resources").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createUser, eventually, type TenantUser } from "@signage/testing";
import { insertFile } from "../src/files/file-repository.js";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let t: Tenant;
let editor: TenantUser;
let approver: TenantUser;
let teamA: string;
let teamB: string;

const row = async (id: string) => lib.knex("file").where({ id }).first();

async function team(name: string): Promise<string> {
  const res = await lib.http.post("/api/team/", { token: t.owner.token, body: { name } });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

async function assign(fileId: string, teamId: string, readOnly: boolean) {
  const res = await lib.http.post("/api/file/updateTeamAssignments", { token: t.owner.token, query: { fileId }, body: { assignToTeams: [{ teamId, readOnly }] } });
  expect(res.status, res.text).toBeLessThan(300);
}

async function joinTeamA(user: TenantUser) {
  const res = await lib.http.post("/api/user/updateTeamAssignments", { token: t.owner.token, query: { email: user.email }, body: { assignToTeams: [{ teamId: teamA, readOnly: false }] } });
  expect(res.status, res.text).toBeLessThan(300);
}

beforeAll(async () => {
  lib = await startLibrary("media_bulk_access");
  t = await lib.tenant();
  [editor, approver] = await Promise.all(["EDITOR", "APPROVER"].map((role) => createUser(lib.http, lib.admin, t.id, role, { restricted: true })));
  [teamA, teamB] = await Promise.all([team("A"), team("B")]);
  await Promise.all([joinTeamA(editor), joinTeamA(approver)]);
}, 60_000);
afterAll(() => lib?.close());

describe("bulk calls affect only the files the caller sees and may write", () => {
  it("'Bulk operations act on the files matched by search', as far as a restricted user in team A 'sees only team-assigned resources': team B's file is never tagged; a read-only match refuses the call (403 team.error.readOnly, as removeBatch) and changes nothing", async () => {
    const mine = await lib.file(t, { name: "acc-mine.png" });
    const theirs = await lib.file(t, { name: "acc-theirs.png" });
    const readOnly = await lib.file(t, { name: "acc-ro.png" });
    const noTeam = await lib.file(t, { name: "acc-none.png" });
    await assign(mine.id, teamA, false);
    await assign(theirs.id, teamB, false);
    await assign(readOnly.id, teamA, true);
    await eventually(() => lib.http.get("/api/v2/file", { token: editor.token, query: { search: "name^acc-" } }), (r) => r.body.totalElements === 3, "team membership replicated");
    const add = (search: string, body: string[]) => lib.http.post("/api/v2/file/tags/add", { token: editor.token, query: { search }, body });

    const refused = await add("name^acc-", ["bulk"]);
    expect([refused.status, refused.body.key]).toEqual([403, "team.error.readOnly"]);
    for (const f of [mine, theirs, readOnly, noTeam]) expect((await row(f.id)).tags).toEqual([]);

    // Without the read-only file: the writable team-A file and the file without team (accessResourcesWithoutTeam), never team B's.
    expect((await add("name^acc-,name≠acc-ro.png", ["bulk"])).status).toBeLessThan(300);
    expect((await row(mine.id)).tags).toEqual(["bulk"]);
    expect((await row(noTeam.id)).tags).toEqual(["bulk"]);
    expect((await row(theirs.id)).tags).toEqual([]);
    const set = await lib.http.post("/api/v2/file/tags/set", { token: editor.token, query: { search: `id=${theirs.id}` }, body: ["pwned"] });
    expect(set.status).toBeLessThan(300);
    expect((await row(theirs.id)).tags).toEqual([]);
    const ownersSet = await lib.http.post("/api/v2/file/tags/set", { token: t.owner.token, query: { search: "name^acc-" }, body: ["owner"] });
    expect(ownersSet.status, ownersSet.text).toBeLessThan(300);
    expect((await row(readOnly.id)).tags).toEqual(["owner"]);
  });

  it("validity/set: the same visibility and read-only refusal", async () => {
    const mine = await lib.file(t, { name: "val-mine.png" });
    const theirs = await lib.file(t, { name: "val-theirs.png" });
    const readOnly = await lib.file(t, { name: "val-ro.png" });
    await assign(mine.id, teamA, false);
    await assign(theirs.id, teamB, false);
    await assign(readOnly.id, teamA, true);
    await eventually(() => lib.http.get("/api/v2/file", { token: approver.token, query: { search: "name^val-" } }), (r) => r.body.totalElements === 2, "team membership replicated");
    const validity = (search: string) => lib.http.post("/api/v2/file/validity/set", { token: approver.token, query: { search, validFrom: 10, validTo: 20 } });

    const refused = await validity("name^val-");
    expect([refused.status, refused.body.key]).toEqual([403, "team.error.readOnly"]);
    expect(await row(mine.id)).toMatchObject({ valid_from: null, valid_to: null });

    expect((await validity(`name^val-,id≠${readOnly.id}`)).status).toBeLessThan(300);
    expect(await row(mine.id)).toMatchObject({ valid_from: 10, valid_to: 20 });
    expect(await row(theirs.id)).toMatchObject({ valid_from: null, valid_to: null });
  });
});

describe("'Batch operations ... require customerId and cannot run across tenants'", () => {
  it("ADMIN without customerId: 400 customer.error.customerIdRequired, nothing tagged in any tenant (its own included); with customerId: that tenant only", async () => {
    const other = await lib.tenant();
    const here = await lib.file(t, { name: "adm-here.png" });
    const there = await lib.file(other, { name: "adm-there.png" });
    // The reviewer's case: ADMIN's own (platform) tenant got tagged.
    const adminTenant = Number((await lib.http.get("/api/v2/user/me", { token: lib.admin })).body.customer.id);
    const adminsOwn = await insertFile(lib.knex, { customerId: adminTenant, name: "adm-own.png", contentType: "image/png", size: 1 });

    for (const [path, query] of [
      ["/api/v2/file/tags/add", { search: "name^adm-" }],
      ["/api/v2/file/validity/set", { search: "name^adm-", validFrom: 1 }],
    ] as const) {
      const res = await lib.http.post(path, { token: lib.admin, query, body: path.includes("tags") ? ["admin"] : undefined });
      expect([res.status, res.body.key], path).toEqual([400, "customer.error.customerIdRequired"]);
    }
    const all = await lib.knex("file").where("name", "like", "adm-%");
    expect(all.every((f: { tags: string[]; valid_from: unknown }) => f.tags.length === 0 && f.valid_from === null)).toBe(true);

    const scoped = await lib.http.post("/api/v2/file/tags/add", { token: lib.admin, query: { search: "name^adm-", customerId: other.id }, body: ["admin"] });
    expect(scoped.status, scoped.text).toBeLessThan(300);
    expect((await row(there.id)).tags).toEqual(["admin"]);
    expect((await row(here.id)).tags).toEqual([]);
    expect((await row(adminsOwn.id)).tags).toEqual([]);
  });

  it("a network owner without customerId (its members and itself): 400; with a member's customerId: that member only; a single-tenant caller needs none", async () => {
    const owner = await createCustomer(lib.http, lib.admin, { createAsSubreseller: true });
    const member = await createCustomer(lib.http, lib.admin, { ownerSubresellerId: owner.id });
    const ownerUser = await createUser(lib.http, lib.admin, owner.id, "OWNER");
    const rootOf = async (customerId: number) =>
      (await eventually(() => lib.http.get("/api/v2/fileFolder", { token: ownerUser.token, query: { search: "parentId=NULL", customerId } }), (r) => r.body.content?.length === 1, "root folder")).body.content[0].id as string;
    const [ownRoot, memberRoot] = [await rootOf(owner.id), await rootOf(member.id)];
    const own = await insertFile(lib.knex, { customerId: owner.id, fileFolderId: ownRoot, name: "net-own.png", contentType: "image/png", size: 1 });
    const members = await insertFile(lib.knex, { customerId: member.id, fileFolderId: memberRoot, name: "net-member.png", contentType: "image/png", size: 1 });
    // The member shows in the owner's cross-tenant list once media knows the network.
    await eventually(() => lib.http.get("/api/v2/file", { token: ownerUser.token, query: { search: "name^net-" } }), (r) => r.body.totalElements === 2, "network replicated");

    const refused = await lib.http.post("/api/v2/file/tags/add", { token: ownerUser.token, query: { search: "name^net-" }, body: ["net"] });
    expect([refused.status, refused.body.key]).toEqual([400, "customer.error.customerIdRequired"]);
    expect((await row(own.id)).tags).toEqual([]);

    const scoped = await lib.http.post("/api/v2/file/tags/add", { token: ownerUser.token, query: { search: "name^net-", customerId: member.id }, body: ["net"] });
    expect(scoped.status, scoped.text).toBeLessThan(300);
    expect((await row(members.id)).tags).toEqual(["net"]);
    expect((await row(own.id)).tags).toEqual([]);

    const single = await lib.http.post("/api/v2/file/tags/add", { token: t.owner.token, query: { search: "name=acc-mine.png" }, body: ["single"] });
    expect(single.status, single.text).toBeLessThan(300);
  });
});
