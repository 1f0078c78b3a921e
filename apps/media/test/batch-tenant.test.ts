// Document 2: "Batch operations ... require customerId and cannot run across tenants."
// An ADMIN (global scope) moving or removing in batch must name the tenant; with it, the
// batch runs in that tenant only. Chunked init checks the tags like every other write.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let t: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_batch_tenant");
  t = await lib.tenant();
}, 60_000);
afterAll(() => lib?.close());

describe("'Batch operations ... require customerId and cannot run across tenants'", () => {
  it("ADMIN without customerId: moveBatchToFolder and removeBatch are 400 and change nothing; with it they run", async () => {
    const target = await lib.folder(t, t.rootId, "target");
    const f = await lib.file(t, { name: "batched.png" });
    const before = await lib.knex("file").where({ id: f.id }).first();
    const move = await lib.http.post("/api/fileFolder/moveBatchToFolder", { token: lib.admin, body: { targetFolder: { id: target.id }, fileIds: [f.id], folderIds: [] } });
    expect([move.status, move.body.key]).toEqual([400, "customer.error.customerIdRequired"]);
    const remove = await lib.http.post("/api/fileFolder/removeBatch", { token: lib.admin, body: { fileIds: [f.id], folderIds: [] } });
    expect([remove.status, remove.body.key]).toEqual([400, "customer.error.customerIdRequired"]);
    expect((await lib.knex("file").where({ id: f.id }).first()).file_folder_id).toBe(before.file_folder_id);

    const moved = await lib.http.post("/api/fileFolder/moveBatchToFolder", { token: lib.admin, query: { customerId: t.id }, body: { targetFolder: { id: target.id }, fileIds: [f.id], folderIds: [] } });
    expect(moved.status, moved.text).toBe(200);
    const removed = await lib.http.post("/api/fileFolder/removeBatch", { token: lib.admin, query: { customerId: t.id }, body: { fileIds: [f.id], folderIds: [] } });
    expect(removed.status, removed.text).toBe(204);
    expect(await lib.knex("file").where({ id: f.id }).first()).toBeUndefined();
  });

  it("a tenant user's batch needs no customerId (its scope is its own tenant)", async () => {
    const f = await lib.file(t, { name: "own.png" });
    const removed = await lib.http.post("/api/fileFolder/removeBatch", { token: t.editor.token, body: { fileIds: [f.id], folderIds: [] } });
    expect(removed.status, removed.text).toBe(204);
  });
});

describe("chunked init: 'tags' follow the tag format", () => {
  it("a bad tag is 400 tag.error.invalidFormat at init, before any session exists", async () => {
    const res = await lib.http.post("/api/v2/file/upload/init", { token: t.editor.token, body: { name: "movie.mp4", size: 10, totalChunks: 1, contentType: "video/mp4", tags: ["-bad"] } });
    expect([res.status, res.body.key]).toEqual([400, "tag.error.invalidFormat"]);
    expect(await lib.knex("upload_session").where({ customer_id: t.id }).count({ n: "*" }).first()).toMatchObject({ n: 0 });
  });

  // Each named file and folder is read and locked in the batch's one transaction: a batch is
  // bounded (1000, as a page), a larger one is a 400 that says to split it, with nothing changed.
  it("more than 1000 files and folders in one batch is 400 fileFolder.error.batchTooLarge, nothing moved or removed", async () => {
    const f = await lib.file(t, { name: "kept.png" });
    const fileIds = [f.id, ...Array.from({ length: 1000 }, () => crypto.randomUUID())];
    for (const [path, body] of [["/api/fileFolder/removeBatch", { fileIds, folderIds: [] }], ["/api/fileFolder/moveBatchToFolder", { targetFolder: { id: t.rootId }, fileIds, folderIds: [] }]] as const) {
      const res = await lib.http.post(path, { token: t.editor.token, body });
      expect([res.status, res.body.key, res.body.details]).toEqual([400, "fileFolder.error.batchTooLarge", { maxItems: 1000, items: 1001 }]);
    }
    expect(await lib.knex("file").where({ id: f.id }).first()).toBeDefined();
  });
});
