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

  // A login reads the user, checks the password, then writes last_login and signs: a role change
  // committing in between leaves a token with the old role and an iat after the change's asOf
  // (read by its trigger, before the commit). Core refuses it at once; media must too, not for 900 s.
  it("'Role per operation as listed': a login racing a demotion signs the old role after it; media refuses that token (401 auth.error.tokenOutdated) as core does", async () => {
    const editor = await createUser(lib.http, lib.admin, a.id, "EDITOR");
    await replicated(editor, { role: "EDITOR" });
    const core = lib.platform.knexOf("core");
    const demotion = await core.transaction();
    let stale: string;
    try {
      // The demotion's trigger reads the clock now; the login below starts over a second later.
      await demotion("app_user").where({ id: userIdOf(editor) }).update({ role: "VIEWER" });
      await new Promise((r) => setTimeout(r, 1100));
      // Reads the committed row (EDITOR), then waits on the row lock to write last_login.
      const login = lib.http.login(editor.email, editor.password);
      await new Promise((r) => setTimeout(r, 300));
      await demotion.commit();
      stale = await login;
    } catch (err) {
      await demotion.rollback();
      throw err;
    }
    expect(JSON.parse(Buffer.from(stale.split(".")[1], "base64url").toString()).role).toBe("EDITOR");
    await replicated(editor, { role: "VIEWER" });
    const me = await lib.http.get("/api/v2/user/me", { token: stale });
    expect([me.status, me.body.key]).toEqual([401, "auth.error.tokenOutdated"]);
    const write = await createFolder(stale);
    expect([write.status, write.body.key], write.text).toEqual([401, "auth.error.tokenOutdated"]);
    expect((await listFolders(await lib.http.login(editor.email, editor.password))).status).toBe(200);
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

  it("a user created again with a deleted one's email is a new user: the old token stays refused, the new one works at once", async () => {
    const first = await createUser(lib.http, lib.admin, a.id, "EDITOR");
    expect((await lib.http.delete("/api/user/", { token: lib.admin, query: { email: first.email } })).status).toBeLessThan(300);
    await replicated(first, { deleted: true });
    const again = await lib.http.post("/api/user/", { token: lib.admin, query: { customerId: a.id }, body: { email: first.email, name: first.email, role: "EDITOR", password: first.password } });
    expect(again.status, again.text).toBe(200);
    const fresh = await lib.http.login(first.email, first.password);
    expect(userIdOf({ ...first, token: fresh })).not.toBe(userIdOf(first));
    expect((await createFolder(fresh)).status).toBe(200);
    const old = await createFolder(first.token);
    expect([old.status, old.body.key]).toEqual([401, "auth.error.userDeleted"]);
  });
});
