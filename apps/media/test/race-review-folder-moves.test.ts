// Folder moves and deletes racing other writes of the same subtree, over HTTP through the gateway.
// "fileFolderPath | string | full path, used for recursive search" (document 1, File and File
// folder) must stay right for every folder and file whatever commits while a move waits, and
// "Folder deletion removes every contained folder and file recursively" must take (and announce)
// whatever joined the subtree while the delete waited. Interleavings are forced with row locks the
// test holds (a knex transaction) and waits observed on real locks (pg_blocking_pids), no sleeps.
import type { Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, eventually, type TenantUser } from "@signage/testing";
import { multipart, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant & { approver: TenantUser };
let knex: Knex;
const deletedEvents: { fileIds: string[]; blobs: { fileId: string; storageKey: string | null }[] }[] = [];

beforeAll(async () => {
  env = await startUploadPlatform("media_race_review_moves");
  const base = await env.tenant();
  t = { ...base, approver: await createUser(env.platform.http, env.admin, base.id, "APPROVER") };
  knex = env.platform.knexOf("media");
  await env.platform.bus.subscribe({ consumer: "test.race_review_moves", types: ["media.file.deleted"], handler: async (e) => void deletedEvents.push(e.data as never) });
}, 60_000);
afterAll(() => env?.close());

const http = () => env.platform.http;

/** A transaction of the test's own, with its backend pid (whose locks others may wait for). */
async function holder(): Promise<{ trx: Knex.Transaction; pid: number }> {
  const trx = await knex.transaction();
  const { rows } = await trx.raw("SELECT pg_backend_pid() AS pid");
  return { trx, pid: rows[0].pid };
}

/** Backends waiting for a lock `pid` holds. */
async function waitersOf(pid: number): Promise<number[]> {
  const { rows } = await knex.raw("SELECT pid FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))", [pid]);
  return rows.map((r: { pid: number }) => r.pid);
}

/** Resolves with the first backend that waits for a lock `pid` holds (polling the lock table, no guessed delay). */
async function someoneWaitsFor(pid: number): Promise<number> {
  for (let i = 0; i < 1000; i++) {
    const w = await waitersOf(pid);
    if (w.length > 0) return w[0];
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`nobody waited for backend ${pid}`);
}

async function folder(parentId: string, name: string): Promise<{ id: string; fileFolderPath: string }> {
  const res = await http().post("/api/fileFolder/", { token: t.editor.token, query: { parentId, name } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const move = (targetId: string, batch: { folderIds?: string[]; fileIds?: string[] }) =>
  http().post("/api/fileFolder/moveBatchToFolder", { token: t.editor.token, body: { targetFolder: { id: targetId }, fileIds: [], folderIds: [], ...batch } });

function upload(parentId: string, name: string) {
  const image = png(2, 2);
  return http().post("/api/file", {
    token: t.editor.token,
    query: { parentId },
    body: multipart([
      { name: "files[]", filename: name, type: "image/png", data: image },
      { name: "previews[]", filename: name, type: "image/png", data: image },
    ]),
  });
}

/** fileFolderPath as the folder list shows it. */
async function folderPath(id: string): Promise<string> {
  const res = await http().get("/api/v2/fileFolder", { token: t.viewer.token, query: { search: `id=${id}` } });
  expect(res.body.content, res.text).toHaveLength(1);
  return res.body.content[0].fileFolderPath;
}

/** Ids of the folders and files a recursive search (`fileFolderPath:<id>`) finds under `id`. */
async function recursively(id: string) {
  const folders = await http().get("/api/v2/fileFolder", { token: t.viewer.token, query: { search: `fileFolderPath:${id}`, size: 100 } });
  const files = await http().get("/api/v2/file", { token: t.viewer.token, query: { search: `fileFolderPath:${id}`, size: 100 } });
  return { folders: folders.body.content.map((f: { id: string }) => f.id), files: files.body.content.map((f: { id: string }) => f.id) };
}

/**
 * The last folder of `path` lives at that path, a file uploaded into it afterwards gets it as its
 * fileFolderPath, and a recursive search from the moved-to folder (path[1]) finds both.
 */
async function expectBelow(path: string[], fileName: string): Promise<void> {
  const folderId = path[path.length - 1];
  expect(await folderPath(folderId)).toBe(pathString(...path));
  const file = await upload(folderId, fileName);
  expect(file.status, file.text).toBe(200);
  expect(file.body[0].fileFolderPath).toBe(pathString(...path));
  const found = await recursively(path[1]);
  expect(found.folders).toEqual(expect.arrayContaining(path.slice(2)));
  expect(found.files).toContain(file.body[0].id);
}

const pathString = (...ids: string[]) => `/${ids.join("/")}/`;

describe("'Move files and folders' while the moved subtree grows: 'fileFolderPath ... full path, used for recursive search' stays right", { timeout: 30_000 }, () => {
  it("a folder created in a subfolder of a folder being moved (and a file uploaded into it) is found by the recursive search of the new place", async () => {
    const g = await folder(t.rootId, "mv-g");
    const p = await folder(g.id, "mv-p");
    const h = await folder(t.rootId, "mv-h");
    // The test shares p as a concurrent upload would: the move's path rewrite waits for it ...
    const share = await holder();
    let created;
    try {
      await share.trx("file_folder").where({ id: p.id }).forShare().first("id");
      const moving = move(h.id, { folderIds: [g.id] });
      await someoneWaitsFor(share.pid);
      // ... while a folder is created in p (sharing p too, so it does not wait) and commits.
      created = await folder(p.id, "mv-c");
      await share.trx.commit();
      const moved = await moving;
      expect(moved.status, moved.text).toBe(200);
    } finally {
      if (!share.trx.isCompleted()) await share.trx.rollback();
    }
    await expectBelow([t.rootId, h.id, g.id, p.id, created.id], "mv-late.png");
  });

  it("a folder moved into a subfolder of a folder being moved at the same time ends below the new place too", async () => {
    const g = await folder(t.rootId, "mv2-g");
    const p = await folder(g.id, "mv2-p");
    const h = await folder(t.rootId, "mv2-h");
    const x = await folder(t.rootId, "mv2-x");
    const inX = await upload(x.id, "mv2-in-x.png");
    expect(inX.status, inX.text).toBe(200);
    const fileId = inX.body[0].id;
    // The test holds x's file: the move of x into p has locked p and rewritten x's folders, and waits for it ...
    const lock = await holder();
    try {
      await lock.trx("file").where({ id: fileId }).forUpdate().first("id");
      const intoP = move(p.id, { folderIds: [x.id] });
      const mover = await someoneWaitsFor(lock.pid);
      // ... while g (p's parent) is moved into h, which waits for p.
      const moving = move(h.id, { folderIds: [g.id] });
      await someoneWaitsFor(mover);
      await lock.trx.commit();
      const [first, second] = await Promise.all([intoP, moving]);
      expect(first.status, first.text).toBe(200);
      expect(second.status, second.text).toBe(200);
    } finally {
      if (!lock.trx.isCompleted()) await lock.trx.rollback();
    }
    await expectBelow([t.rootId, h.id, g.id, p.id, x.id], "mv2-late.png");
    expect((await recursively(h.id)).files).toContain(fileId);
  });

  it("two moves that would form a cycle (a into b while b into a): one is 409 request.error.concurrentUpdate, the other moves; no cycle", async () => {
    const a = await folder(t.rootId, "cy-a");
    const b = await folder(t.rootId, "cy-b");
    const fa = (await upload(t.rootId, "cy-fa.png")).body[0].id;
    const fb = (await upload(t.rootId, "cy-fb.png")).body[0].id;
    // Each move names a file the test holds: both have locked their target before either locks its folder.
    const lock = await holder();
    let results;
    try {
      await lock.trx("file").whereIn("id", [fa, fb]).forUpdate().select("id");
      const ab = move(b.id, { folderIds: [a.id], fileIds: [fa] });
      const ba = move(a.id, { folderIds: [b.id], fileIds: [fb] });
      for (let i = 0; i < 1000 && (await waitersOf(lock.pid)).length < 2; i++) await new Promise((r) => setTimeout(r, 10));
      expect(await waitersOf(lock.pid)).toHaveLength(2);
      await lock.trx.commit();
      results = await Promise.all([ab, ba]);
    } finally {
      if (!lock.trx.isCompleted()) await lock.trx.rollback();
    }
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body).toMatchObject({ status: 409, key: "request.error.concurrentUpdate" });
    const rows: { id: string; parent_id: string; path: string[] }[] = await knex("file_folder").whereIn("id", [a.id, b.id]).select("id", "parent_id", "path");
    const parents = new Map(rows.map((r) => [r.id, r.parent_id]));
    // Exactly one is inside the other, and the outer one is still in the root.
    expect([parents.get(a.id), parents.get(b.id)].filter((p) => p === t.rootId)).toHaveLength(1);
    for (const r of rows) expect(r.path[0]).toBe(t.rootId);
  });
});

describe("'Folder deletion removes every contained folder and file recursively' while the subtree grows", { timeout: 30_000 }, () => {
  it("a file uploaded into a folder created in the subtree while the delete waited is deleted with it and announced, its bytes scheduled; never dropped unannounced", async () => {
    await env.setStorageSize(t.id, 1_000_000_000);
    const top = await folder(t.rootId, "del-top");
    const p = await folder(top.id, "del-p");
    const share = await holder();
    const usage = await holder();
    let deleting;
    let uploaded;
    try {
      await share.trx("file_folder").where({ id: p.id }).forShare().first("id");
      deleting = http().delete(`/api/fileFolder/${top.id}`, { token: t.editor.token });
      await someoneWaitsFor(share.pid);
      // A folder created in p meanwhile (it shares p and does not wait) ...
      const c = await folder(p.id, "del-c");
      // ... and an upload into it that is held at its last step (the quota total's row, which the test holds).
      await usage.trx.raw("INSERT INTO storage_usage (customer_id) VALUES (?) ON CONFLICT (customer_id) DO NOTHING", [t.id]);
      await usage.trx("storage_usage").where({ customer_id: t.id }).forUpdate().first("customer_id");
      const uploading = upload(c.id, "del-late.png");
      const uploader = await someoneWaitsFor(usage.pid);
      // The delete goes on, and waits for the upload (which holds c).
      await share.trx.commit();
      await someoneWaitsFor(uploader);
      await usage.trx.commit();
      uploaded = await uploading;
      const deleted = await deleting;
      expect(deleted.status, deleted.text).toBe(204);
    } finally {
      for (const h of [share, usage]) if (!h.trx.isCompleted()) await h.trx.rollback();
    }
    // The upload committed before the delete took the subtree, so the delete took its file: the upload's answer is
    // its file, or (the delete having committed before the upload read it back) 404 naming it.
    expect([200, 404], uploaded.text).toContain(uploaded.status);
    const fileId = uploaded.status === 200 ? uploaded.body[0].id : uploaded.body.details.fileId;
    if (uploaded.status === 404) expect(uploaded.body).toMatchObject({ key: "file.error.notFound" });
    expect(await knex("file").where({ id: fileId })).toEqual([]);
    expect(await knex("file_folder").where({ customer_id: t.id }).whereRaw("path @> ARRAY[?]::uuid[]", [top.id])).toEqual([]);
    // "media.file.deleted" names it with its bytes (which the delete scheduled for removal), as every other file of the subtree.
    const announced = await eventually(
      async () => deletedEvents.filter((e) => e.fileIds.includes(fileId)),
      (hits) => hits.length > 0,
      "the late file announced as deleted",
    );
    expect(announced[0].blobs.find((b) => b.fileId === fileId)?.storageKey).toBeTruthy();
  });
});
