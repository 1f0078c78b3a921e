// "Nothing lost, and no garbage left behind by a crash": every blob an upload
// writes has a committed blob intent until its owning row commits; the intent
// sweeper removes the blobs of stale intents. Real PostgreSQL, filesystem
// store, uploads over HTTP through the gateway; crashes are simulated by
// stopping after the blob write without committing a row.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readErrorDetail } from "@signage/auth";
import { createFilesystemBlobStore, type BlobStore } from "@signage/storage";
import { adoptBlobIntents, recordBlobIntents, sweepBlobIntents } from "../src/storage/index.js";
import { ownWrittenBlobs, writeDigested } from "../src/uploads/blob-write.js";
import { sweepExpiredSessions } from "../src/uploads/index.js";
import { multipart, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let store: BlobStore;

beforeAll(async () => {
  // The module's own sweep stays out of the way (default grace, hourly).
  env = await startUploadPlatform("uploads_intents", { BLOB_INTENT_SWEEP_INTERVAL_MS: "3600000" });
  store = createFilesystemBlobStore({ root: env.blobDir });
}, 60_000);
afterAll(() => env?.close());

const knex = () => env.platform.knexOf("media");
const HOUR = 60 * 60 * 1000;

async function intentsOf(customerId: number): Promise<string[]> {
  return (await knex()("blob_intent").where({ customer_id: customerId }).select("key")).map((r: { key: string }) => r.key);
}

/** Every stored blob of a tenant (plain files and assembled manifests). */
async function blobsOf(customerId: number): Promise<string[]> {
  const dirs = [`files/${customerId}`, `thumbnails/${customerId}`, `.composed/files/${customerId}`];
  const lists = await Promise.all(dirs.map(async (d) => (await readdir(join(env.blobDir, d)).catch(() => [] as string[])).map((n) => `${d}/${n}`)));
  return lists.flat();
}

function post(token: string, form: FormData) {
  return env.platform.http.post("/api/file", { token, body: form });
}

/** What an upload does before its row commits: intent, then the blob. Then "crash". */
async function writeWithoutOwner(customerId: number, key: string, data: Buffer) {
  await writeDigested({ knex: knex(), store, customerId }, key, Readable.from([data]), "image/png", { maxBytes: 1024 * 1024, what: "test" });
}

describe("blob intents: no orphan blobs after a crash", { timeout: 60_000 }, () => {
  let t: UploadTenant;
  beforeAll(async () => {
    t = await env.tenant();
  });

  it("a blob left by a crash before its row committed is swept with its intent once past the grace period, not before", async () => {
    const key = `files/${t.id}/crashed-${Date.now()}.png`;
    await writeWithoutOwner(t.id, key, png(3, 3));
    expect(await intentsOf(t.id)).toEqual([key]);
    expect(await store.stat(key)).toBeDefined();

    expect(await sweepBlobIntents(knex(), store, { graceMs: HOUR })).toBe(0);
    expect(await store.stat(key)).toBeDefined();

    expect(await sweepBlobIntents(knex(), store, { graceMs: 0 })).toBeGreaterThanOrEqual(1);
    expect(await store.stat(key)).toBeUndefined();
    expect(await intentsOf(t.id)).toEqual([]);
    // Idempotent: a second round finds nothing, and a missing blob is no error.
    await recordBlobIntents(knex(), t.id, [key]);
    expect(await sweepBlobIntents(knex(), store, { graceMs: 0 })).toBe(1);
  });

  it("nothing lost: an intent being adopted is skipped by the sweep; a swept one makes the owner refuse (rollback)", async () => {
    const key = `files/${t.id}/slow-${Date.now()}.png`;
    await writeWithoutOwner(t.id, key, png(2, 2));
    // The owner's transaction holds the intent: the sweep passes it by, and a rollback gives it back.
    const trx = await knex().transaction();
    expect(await adoptBlobIntents(trx, [key])).toEqual([]);
    expect(await sweepBlobIntents(knex(), store, { graceMs: 0 })).toBe(0);
    expect(await store.stat(key)).toBeDefined();
    await trx.rollback();
    // Swept first (the upload outlived the grace): the owner must not commit a row pointing at lost bytes.
    expect(await sweepBlobIntents(knex(), store, { graceMs: 0 })).toBe(1);
    const refused = await knex().transaction((tx) => ownWrittenBlobs(tx, [key])).then(() => undefined, (e: unknown) => e);
    expect(readErrorDetail(refused)?.key).toBe("upload.error.expired");
  });

  it("completed uploads leave no intent: simple upload with preview, thumbnail replace (old thumbnail deleted), chunked complete", async () => {
    const u = await env.tenant();
    const res = await post(u.editor.token, multipart([
      { name: "files[]", filename: "a.png", type: "image/png", data: png(4, 4) },
      { name: "previews[]", filename: "a.png", type: "image/png", data: png(1, 1) },
    ]));
    expect(res.status, res.text).toBe(200);
    const fileId = res.body[0].id;
    const before = await knex()("file").where({ id: fileId }).first();
    expect(await intentsOf(u.id)).toEqual([]);

    const thumb = await env.platform.http.put(`/api/v2/file/upload/${fileId}/thumbnail`, { token: u.editor.token, body: png(2, 2), headers: { "content-type": "image/png" } });
    expect(thumb.status, thumb.text).toBe(204);
    const after = await knex()("file").where({ id: fileId }).first();
    expect(after.thumbnail_key).not.toBe(before.thumbnail_key);
    expect(await store.stat(before.thumbnail_key)).toBeUndefined();
    expect(await intentsOf(u.id)).toEqual([]);

    const init = await env.platform.http.post("/api/v2/file/upload/init", { token: u.editor.token, body: { name: "c.mp4", size: 20, totalChunks: 1, contentType: "video/mp4" } });
    expect(init.status, init.text).toBe(200);
    await env.platform.http.put(`/api/v2/file/upload/${init.body.uploadId}/part/1`, { token: u.editor.token, body: Buffer.alloc(20, 7), headers: { "content-type": "application/octet-stream" } });
    const done = await env.platform.http.post(`/api/v2/file/upload/${init.body.uploadId}/complete`, { token: u.editor.token });
    expect(done.status, done.text).toBe(200);
    expect(await intentsOf(u.id)).toEqual([]);
    // Exactly the committed rows' blobs remain.
    const rows = await knex()("file").where({ customer_id: u.id });
    const owned = rows.flatMap((r: { storage_key: string; thumbnail_key: string | null }) => [r.storage_key, r.thumbnail_key]).filter(Boolean);
    expect((await blobsOf(u.id)).map((b) => b.replace(/^\.composed\//, "").replace(/\.json$/, "")).sort()).toEqual(owned.sort());
  });

  it("failed uploads leave no intent and no blob: 415 after a stored file, 413 mid-stream (preview and thumbnail)", async () => {
    const u = await env.tenant();
    const unsupported = await post(u.editor.token, multipart([
      { name: "files[]", filename: "ok.png", type: "image/png", data: png(3, 3) },
      { name: "files[]", filename: "bad.txt", type: "text/plain", data: "no" },
    ]));
    expect(unsupported.status).toBe(415);
    const tooLarge = await post(u.editor.token, multipart([
      { name: "files[]", filename: "ok.png", type: "image/png", data: png(3, 3) },
      { name: "previews[]", filename: "ok.png", type: "image/png", data: Buffer.alloc(20 * 1024 * 1024 + 1, 1) },
    ]));
    expect(tooLarge.status).toBe(413);
    expect(await intentsOf(u.id)).toEqual([]);
    expect(await blobsOf(u.id)).toEqual([]);

    const file = (await post(u.editor.token, multipart([{ name: "files[]", filename: "f.pdf", type: "application/pdf", data: "%PDF" }]))).body[0];
    const big = await env.platform.http.put(`/api/v2/file/upload/${file.id}/thumbnail`, { token: u.editor.token, body: Buffer.alloc(20 * 1024 * 1024 + 1, 1), headers: { "content-type": "image/png" } });
    expect(big.status).toBe(413);
    expect(await intentsOf(u.id)).toEqual([]);
    expect(await blobsOf(u.id)).toEqual([`files/${u.id}/${file.id}.pdf`]);
  });

  it("a crash mid-complete (parts assembled, no row): both the intent sweep and the expired-session sweep remove the blob", async () => {
    const u = await env.tenant();
    for (const sweeper of ["intents", "sessions"] as const) {
      const init = await env.platform.http.post("/api/v2/file/upload/init", { token: u.editor.token, body: { name: `${sweeper}.mp4`, size: 20, totalChunks: 1, contentType: "video/mp4" } });
      await env.platform.http.put(`/api/v2/file/upload/${init.body.uploadId}/part/1`, { token: u.editor.token, body: Buffer.alloc(20, 3), headers: { "content-type": "application/octet-stream" } });
      const session = await knex()("upload_session").where({ id: init.body.uploadId }).first();
      // completeUpload up to the crash: claimed, intent recorded, parts assembled.
      await knex()("upload_session").where({ id: session.id }).update({ state: "completing" });
      await recordBlobIntents(knex(), u.id, [session.storage_key]);
      const parts = await store.multipart.listParts(session.storage_key, session.store_upload_id);
      await store.multipart.complete(session.storage_key, session.store_upload_id, parts);
      expect(await store.stat(session.storage_key)).toMatchObject({ size: 20 });

      if (sweeper === "intents") {
        expect(await sweepBlobIntents(knex(), store, { graceMs: 0 })).toBeGreaterThanOrEqual(1);
      } else {
        expect(await sweepExpiredSessions(knex(), store, new Date(Date.now() + 25 * HOUR))).toBeGreaterThanOrEqual(1);
        expect(await knex()("upload_session").where({ id: session.id }).first()).toBeUndefined();
      }
      expect(await store.stat(session.storage_key)).toBeUndefined();
    }
    await sweepBlobIntents(knex(), store, { graceMs: 0 });
    expect(await intentsOf(u.id)).toEqual([]);
    expect(await blobsOf(u.id)).toEqual([]);
  });

  it("two sweepers at once delete each blob once, without error", async () => {
    const u = await env.tenant();
    const keys = Array.from({ length: 40 }, (_, i) => `files/${u.id}/orphan-${i}.png`);
    for (const key of keys) await writeWithoutOwner(u.id, key, png(1, 1));
    const deletes = new Map<string, number>();
    const counting: BlobStore = {
      ...store,
      async delete(key) {
        deletes.set(key, (deletes.get(key) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 2)); // widen the overlap
        await store.delete(key);
      },
    };
    const [a, b] = await Promise.all([sweepBlobIntents(knex(), counting, { graceMs: 0, batch: 5 }), sweepBlobIntents(knex(), counting, { graceMs: 0, batch: 5 })]);
    expect(a + b).toBe(keys.length);
    for (const key of keys) expect(deletes.get(key), key).toBe(1);
    expect(await intentsOf(u.id)).toEqual([]);
    expect(await blobsOf(u.id)).toEqual([]);
  });
});
