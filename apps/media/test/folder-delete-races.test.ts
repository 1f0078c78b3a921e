// "Folder deletion removes every contained folder and file recursively", and nothing is
// lost on the way: a file an upload commits into the subtree while the delete runs is
// deleted like the others (announced in media.file.deleted, its bytes scheduled for
// removal), not dropped by the database's cascade unannounced with its bytes left behind;
// an upload, a move or a folder create that reaches a folder already being deleted gets 404
// once the delete commits (a move or create used to fail on the foreign key: 500). Each waits on
// a real lock (pg_blocking_pids), not on a guessed delay. The upload's transaction is driven directly (insertFile, as uploads call it) so that it
// can be held open across the delete (and the service's deleteFolderTree, where the delete must be
// the one held); everything else goes through the gateway over HTTP.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Knex } from "knex";
import { insertFile } from "../src/files/file-repository.js";
import { deleteFolderTree } from "../src/folders/folder-delete.js";
import { requireFolder } from "../src/folders/folder-repository.js";
import { startLibrary, type Library, type Tenant } from "./files-support.js";
import { noStore, serviceDeps } from "./support/service-deps.js";

let lib: Library;
let t: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_folder_delete_races");
  t = await lib.tenant();
}, 60_000);
afterAll(() => lib?.close());

/**
 * Runs `work` in a transaction, then holds it open until `release()`, then commits; `done`
 * settles with the commit, `pid` is its backend (whose locks others may wait for).
 */
function heldTransaction<T>(work: (trx: Knex.Transaction) => Promise<T>) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let ready!: (pid: number) => void;
  const started = new Promise<number>((r) => (ready = r));
  const done = lib.knex.transaction(async (trx) => {
    const { rows } = await trx.raw("SELECT pg_backend_pid() AS pid");
    const result = await work(trx);
    ready(rows[0].pid);
    await gate;
    return result;
  });
  done.catch(() => ready(-1));
  return { started, release, done };
}

/** Resolves once another backend waits for a lock `pid` holds (no sleeping on a guess). */
async function someoneWaitsFor(pid: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await lib.knex.raw("SELECT count(*)::int AS n FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))", [pid]);
    if (rows[0].n > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`nobody waited for backend ${pid}`);
}

/** The service's folder delete (deleteFolderTree), done and held uncommitted until released. */
function heldFolderDelete(folderId: string) {
  return heldTransaction(async (trx) => deleteFolderTree(trx, serviceDeps(lib.knex, lib.platform.bus, noStore), await requireFolder(trx, t.id, folderId, true)));
}

/** Starts `request` while the delete of `folderId` holds its subtree, lets the delete commit once the request waits on it, and returns the request's outcome. */
async function whileFolderDeleteHolds<T>(folderId: string, request: () => Promise<T>): Promise<T> {
  const del = heldFolderDelete(folderId);
  const deleter = await del.started;
  const outcome = request();
  await someoneWaitsFor(deleter);
  del.release();
  await del.done;
  return outcome;
}

describe("a folder delete and an upload into its subtree at the same time", () => {
  it("an upload committing while the delete runs: its file is deleted, announced and its bytes scheduled, like the others", async () => {
    const top = await lib.folder(t, t.rootId, `race-top-${randomUUID()}`);
    const sub = await lib.folder(t, top.id, "race-sub");
    const before = await lib.file(t, { fileFolderId: sub.id, storageKey: `files/${t.id}/${randomUUID()}.png` });
    const lateKey = `files/${t.id}/${randomUUID()}.png`;
    const upload = heldTransaction((trx) => insertFile(trx, { customerId: t.id, name: "late.png", contentType: "image/png", size: 100, fileFolderId: sub.id, storageKey: lateKey }));
    const uploader = await upload.started;
    const deleting = lib.http.delete(`/api/fileFolder/${top.id}`, { token: t.editor.token });
    // The delete waits for the upload's transaction (it holds the folder) ...
    await someoneWaitsFor(uploader);
    upload.release();
    const late = await upload.done;
    // ... and then takes its file with the others.
    expect((await deleting).status).toBeLessThan(300);
    expect(await lib.knex("file").whereIn("id", [before.id, late.id])).toEqual([]);
    // The event lists the bytes the delete scheduled for removal (the same list its intents were written from).
    const events = await lib.eventsOf("media.file.deleted", (e) => e.data.fileIds.includes(late.id));
    expect(events.flatMap((e) => e.data.fileIds)).toEqual(expect.arrayContaining([before.id, late.id]));
    expect(events.flatMap((e) => e.data.blobs.map((b: { storageKey: string }) => b.storageKey))).toEqual(expect.arrayContaining([before.storage_key, lateKey]));
  });

  it("an upload reaching a folder the delete holds waits for it, then gets 404 fileFolder.error.notFound; nothing of it is stored", async () => {
    const top = await lib.folder(t, t.rootId, `race-top-${randomUUID()}`);
    const sub = await lib.folder(t, top.id, "race-sub");
    const error = await whileFolderDeleteHolds(top.id, () =>
      lib.knex
        .transaction((trx) => insertFile(trx, { customerId: t.id, name: "too-late.png", contentType: "image/png", size: 100, fileFolderId: sub.id }))
        .then(
          () => "stored" as const,
          (e: ConnectError) => e,
        ),
    );
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.NotFound);
    expect((error as ConnectError).rawMessage).toBe(`File folder '${sub.id}' not found`);
    expect(await lib.knex("file").where({ name: "too-late.png", customer_id: t.id })).toEqual([]);
  });

  it("a move into a folder the delete holds waits for it, then is 404 fileFolder.error.notFound (not a 500); the file stays where it was", async () => {
    const top = await lib.folder(t, t.rootId, `race-top-${randomUUID()}`);
    const sub = await lib.folder(t, top.id, "race-sub");
    const file = await lib.file(t);
    const moved = await whileFolderDeleteHolds(top.id, () =>
      lib.http.post("/api/fileFolder/moveBatchToFolder", { token: t.editor.token, body: { targetFolder: { id: sub.id }, fileIds: [file.id] } }),
    );
    expect(moved.status, moved.text).toBe(404);
    expect(moved.body).toMatchObject({ status: 404, key: "fileFolder.error.notFound" });
    expect(await lib.knex("file").where({ id: file.id }).first("file_folder_id")).toEqual({ file_folder_id: t.rootId });
  });

  it("a folder created in a folder the delete holds waits for it, then is 404 fileFolder.error.notFound (not a 500)", async () => {
    const top = await lib.folder(t, t.rootId, `race-top-${randomUUID()}`);
    const sub = await lib.folder(t, top.id, "race-sub");
    const created = await whileFolderDeleteHolds(top.id, () => lib.http.post("/api/fileFolder/", { token: t.editor.token, query: { parentId: sub.id, name: "too-late" } }));
    expect(created.status, created.text).toBe(404);
    expect(created.body).toMatchObject({ status: 404, key: "fileFolder.error.notFound" });
    expect(await lib.knex("file_folder").where({ name: "too-late", customer_id: t.id })).toEqual([]);
  });
});
