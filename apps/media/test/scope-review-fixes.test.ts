// Operations an ADMIN (or a network owner) reaches without customerId, and a folder hidden by
// teams, over HTTP through the gateway. Document 2, customer scoping: "ADMIN | Without customerId:
// all tenants (global)"; "User": restricted = "sees only team-assigned resources".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@signage/testing";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_scope_review");
  [a, b] = [await lib.tenant(), await lib.tenant()];
}, 60_000);
afterAll(() => lib?.close());

describe("'ADMIN | Without customerId: all tenants (global)'", () => {
  it("replaceFileReference without customerId acts in the tenant of the file replaced, as PUT /api/file/{id} does (it answered 404 for files the ADMIN lists)", async () => {
    const [old, source] = [await lib.file(a), await lib.file(a)];
    const res = await lib.http.put("/api/file/replaceFileReference", { token: lib.admin, query: { fileIdToReplace: old.id, sourceFileId: source.id, removeOldFile: true } });
    expect(res.status, res.text).toBe(204);
    expect(await lib.knex("file").where({ id: old.id }).first()).toBeUndefined();
    const replaced = await lib.eventsOf("media.file.replaced", (e) => e.data.fileIdToReplace === old.id);
    expect(replaced[0]).toMatchObject({ customerId: a.id });
    // A source of another tenant is not in the replaced file's tenant.
    const [other, foreign] = [await lib.file(a), await lib.file(b)];
    const cross = await lib.http.put("/api/file/replaceFileReference", { token: lib.admin, query: { fileIdToReplace: other.id, sourceFileId: foreign.id } });
    expect([cross.status, cross.body.key], cross.text).toEqual([404, "file.error.notFound"]);
    // A tenant user still reaches only its own tenant's files.
    const hidden = await lib.http.put("/api/file/replaceFileReference", { token: b.approver.token, query: { fileIdToReplace: other.id, sourceFileId: foreign.id } });
    expect([hidden.status, hidden.body.key]).toEqual([404, "file.error.notFound"]);
  });

  it("storage statistics are one customer's: without customerId an ADMIN gets 400 customer.error.customerIdRequired (it got its own tenant's zeros), with it that customer's figures", async () => {
    await lib.file(a, { size: 30 });
    const stored = Number((await lib.knex("storage_usage").where({ customer_id: a.id }).first()).files_bytes);
    expect(stored).toBeGreaterThanOrEqual(30);
    const refused = await lib.http.get("/api/v2/file/storageStatistics", { token: lib.admin });
    expect([refused.status, refused.body.key], refused.text).toEqual([400, "customer.error.customerIdRequired"]);
    const named = await lib.http.get("/api/v2/file/storageStatistics", { token: lib.admin, query: { customerId: a.id } });
    expect(named.status, named.text).toBe(200);
    expect(Number(named.body.usedUploadedFileStorageSize)).toBe(stored);
    const own = await lib.http.get("/api/v2/file/storageStatistics", { token: a.viewer.token });
    expect(Number(own.body.usedUploadedFileStorageSize)).toBe(stored);
  });
});

describe("'restricted = sees only team-assigned resources': the breadcrumb", () => {
  it("of a folder the caller's teams hide is 404 fileFolder.error.notFound, as the folder is everywhere else (it answered 200 with the root)", async () => {
    const restricted = await createUser(lib.http, lib.admin, a.id, "EDITOR", { restricted: true });
    const team = (await lib.http.post("/api/team/", { token: a.owner.token, body: { name: "breadcrumb-team" } })).body.id as string;
    const otherTeam = (await lib.http.post("/api/team/", { token: a.owner.token, body: { name: "other-team" } })).body.id as string;
    expect((await lib.http.post("/api/user/updateTeamAssignments", { token: a.owner.token, query: { email: restricted.email }, body: { assignToTeams: [{ teamId: team, readOnly: false }] } })).status).toBeLessThan(300);
    const hidden = await lib.folder(a, a.rootId, "hidden-from-team");
    const shown = await lib.folder(a, a.rootId, "shown-to-team");
    // Held by another team only: hidden from the restricted user.
    expect((await lib.http.post("/api/fileFolder/updateTeamAssignments", { token: a.owner.token, query: { fileFolderId: hidden.id }, body: { assignToTeams: [{ teamId: otherTeam, readOnly: false }] } })).status).toBeLessThan(300);
    expect((await lib.http.post("/api/fileFolder/updateTeamAssignments", { token: a.owner.token, query: { fileFolderId: shown.id }, body: { assignToTeams: [{ teamId: team, readOnly: false }] } })).status).toBeLessThan(300);
    const breadcrumb = (folderId: string) => lib.http.get("/api/v2/fileFolder/breadcrumb", { token: restricted.token, query: { folderId } });
    // Team access reaches media by event: wait until the shown folder's breadcrumb answers.
    for (let i = 0; i < 100 && (await breadcrumb(shown.id)).status !== 200; i++) await new Promise((r) => setTimeout(r, 30));
    const ok = await breadcrumb(shown.id);
    expect(ok.body.fileFolders.map((f: { id: string }) => f.id)).toEqual([a.rootId, shown.id]);
    const res = await breadcrumb(hidden.id);
    expect([res.status, res.body.key], res.text).toEqual([404, "fileFolder.error.notFound"]);
  });
});
