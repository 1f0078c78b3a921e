// Media checks each user token against its replica of the users (libs/runtime
// replica-current-user.ts), over HTTP through the gateway. Document 2: "Role per operation as
// listed", users are created, changed and deleted "by OWNER or ADMIN": a demoted EDITOR must not
// keep writing files until the old token expires (900 s), nor a deleted user keep reading them.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, eventually, type TenantUser } from "@signage/testing";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let a: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_token_revocation");
  a = await lib.tenant();
}, 60_000);
afterAll(() => lib?.close());

const createFolder = (token: string) => lib.http.post("/api/fileFolder/", { token, query: { parentId: a.rootId, name: `f-${randomUUID()}` } });
const listFolders = (token: string) => lib.http.get("/api/v2/fileFolder", { token, query: { search: "parentId=NULL" } });
const replicated = (user: TenantUser, facts: Record<string, unknown>) =>
  eventually(
    () => lib.knex("team_user").where({ user_id: userIdOf(user) }).first("role", "deleted"),
    (row) => row !== undefined && Object.entries(facts).every(([k, v]) => row[k] === v),
    "user replicated to media",
  );

function userIdOf(user: TenantUser): string {
  return JSON.parse(Buffer.from(user.token.split(".")[1], "base64url").toString()).uid;
}

describe("tokens checked against media's replica of the users", { timeout: 30_000 }, () => {
  it("a demoted EDITOR's old token is refused (401 auth.error.tokenOutdated); a fresh one works at once with the new role", async () => {
    const editor = await createUser(lib.http, lib.admin, a.id, "EDITOR");
    await replicated(editor, { role: "EDITOR" });
    const created = await createFolder(editor.token);
    expect(created.status, created.text).toBe(200);

    const demote = await lib.http.put("/api/user/", { token: lib.admin, query: { email: editor.email }, body: { role: "VIEWER" } });
    expect(demote.status, demote.text).toBe(200);
    await replicated(editor, { role: "VIEWER" });
    const refused = await createFolder(editor.token);
    expect(refused.status, refused.text).toBe(401);
    expect(refused.body.key).toBe("auth.error.tokenOutdated");
    expect((await listFolders(editor.token)).status).toBe(401);

    const fresh = await lib.http.login(editor.email, editor.password);
    expect((await listFolders(fresh)).status).toBe(200);
    const write = await createFolder(fresh);
    expect(write.status, write.text).toBe(403);
    // Nobody else's tokens are affected.
    expect((await createFolder(a.editor.token)).status).toBe(200);
  });

  it("a deleted user's token is refused (401 auth.error.userDeleted) on media too", async () => {
    const viewer = await createUser(lib.http, lib.admin, a.id, "VIEWER");
    expect((await listFolders(viewer.token)).status).toBe(200);
    const gone = await lib.http.delete("/api/user/", { token: lib.admin, query: { email: viewer.email } });
    expect(gone.status, gone.text).toBeLessThan(300);
    await replicated(viewer, { deleted: true });
    const refused = await listFolders(viewer.token);
    expect(refused.status, refused.text).toBe(401);
    expect(refused.body.key).toBe("auth.error.userDeleted");
  });
});
