// "Folder deletion removes every contained folder and file recursively", and nothing is
// lost on the way: a file an upload commits into the subtree while the delete runs is
// deleted like the others (announced in media.file.deleted, its bytes scheduled for
// removal), not dropped by the database's cascade unannounced with its bytes left behind;
// an upload or a move that reaches a folder already being deleted gets 404 once the delete
// commits (a move used to fail on the foreign key: 500). The upload's transaction is driven directly (insertFile, as uploads call it) so that it
// can be held open across the delete; the delete goes through the gateway over HTTP.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Knex } from "knex";
import { insertFile } from "../src/files/file-repository.js";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let t: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_folder_delete_races");
  t = await lib.tenant();
}, 60_000);
afterAll(() => lib?.close());

/**
 * Runs `work` in a transaction, then holds it open until `release()`, then runs `finish` in it
 * and commits; `done` settles with the commit.
 */
function heldTransaction<T>(work: (trx: Knex.Transaction) => Promise<T>, finish: (trx: Knex.Transaction) => Promise<unknown> = async () => undefined) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let ready!: () => void;
  const started = new Promise<void>((r) => (ready = r));
  const done = lib.knex.transaction(async (trx) => {
    const result = await work(trx);
    ready();
    await gate;
    await finish(trx);
    return result;
  });
  done.catch(() => ready());
  return { started, release, done };
}

/** A folder delete's transaction held open after it locked the subtree, as deleteFolderTree locks it; released, it deletes the subtree and commits. */
function heldFolderDelete(topId: string) {
  const subtree = (trx: Knex.Transaction) => trx("file_folder").whereRaw("path @> ARRAY[?]::uuid[]", [topId]);
  return heldTransaction(
    (trx) => subtree(trx).orderBy("id").forUpdate().select("id"),
    (trx) => subtree(trx).delete(),
  );
}

const settledWithin = (p: Promise<unknown>, ms: number) => Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))]);

describe("a folder delete and an upload into its subtree at the same time", () => {
  it("an upload committing while the delete runs: its file is deleted, announced and its bytes scheduled, like the others", async () => {
    const top = await lib.folder(t, t.rootId, `race-top-${randomUUID()}`);
    const sub = await lib.folder(t, top.id, "race-sub");
    const before = await lib.file(t, { fileFolderId: sub.id, storageKey: `files/${t.id}/${randomUUID()}.png` });
    const lateKey = `files/${t.id}/${randomUUID()}.png`;
    const upload = heldTransaction((trx) => insertFile(trx, { customerId: t.id, name: "late.png", contentType: "image/png", size: 100, fileFolderId: sub.id, storageKey: lateKey }));
    await upload.started;
    const deleting = lib.http.delete(`/api/fileFolder/${top.id}`, { token: t.editor.token });
    // The delete waits for the upload's transaction (it holds the folder) ...
    expect(await settledWithin(deleting, 300)).toBe(false);
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
    const del = heldFolderDelete(top.id);
    await del.started;
    const outcome = lib.knex
      .transaction((trx) => insertFile(trx, { customerId: t.id, name: "too-late.png", contentType: "image/png", size: 100, fileFolderId: sub.id }))
      .then(
        () => "stored" as const,
        (error: ConnectError) => error,
      );
    expect(await settledWithin(outcome, 300)).toBe(false);
    del.release();
    await del.done;
    const error = await outcome;
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.NotFound);
    expect((error as ConnectError).rawMessage).toBe(`File folder '${sub.id}' not found`);
    expect(await lib.knex("file").where({ name: "too-late.png", customer_id: t.id })).toEqual([]);
  });

  it("a move into a folder the delete holds waits for it, then is 404 fileFolder.error.notFound (not a 500); the file stays where it was", async () => {
    const top = await lib.folder(t, t.rootId, `race-top-${randomUUID()}`);
    const sub = await lib.folder(t, top.id, "race-sub");
    const file = await lib.file(t);
    const del = heldFolderDelete(top.id);
    await del.started;
    const moving = lib.http.post("/api/fileFolder/moveBatchToFolder", { token: t.editor.token, body: { targetFolder: { id: sub.id }, fileIds: [file.id] } });
    expect(await settledWithin(moving, 300)).toBe(false);
    del.release();
    await del.done;
    const moved = await moving;
    expect(moved.status, moved.text).toBe(404);
    expect(moved.body).toMatchObject({ status: 404, key: "fileFolder.error.notFound" });
    expect(await lib.knex("file").where({ id: file.id }).first("file_folder_id")).toEqual({ file_folder_id: t.rootId });
  });
});
