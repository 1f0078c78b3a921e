// Download URLs of files that are gone, over HTTP through the gateway. Document 1
// "File": "location | string | download URL (computed; request it in select)",
// "thumbnail | string | thumbnail URL (computed)", and "Delete file | DELETE
// `/api/file/{fileId}`"; "Files are immutable and referenced by id. A replace
// operation swaps all references from one file to another." A URL is the file's:
// once the delete (or a replace with removeOldFile, or a new thumbnail) is
// committed, its URLs answer 404 storage.error.blobNotFound, even while the bytes
// still wait for their removal (after the response, the blob intent sweep after a
// crash, or a big folder's bytes left to the sweep).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox } from "@signage/events";
import { createFilesystemBlobStore, type BlobStore } from "@signage/storage";
import { deleteFileRows, INLINE_BLOB_REMOVALS } from "../src/files/file-delete.js";
import { replaceFileInTransaction } from "../src/files/file-replace.js";
import { setThumbnailKey } from "../src/files/file-repository.js";
import { teamsNotAvailable } from "../src/files/team-hooks.js";
import { scheduleBlobRemoval } from "../src/storage/index.js";
import { multipart, pathOf, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let store: BlobStore;
let t: UploadTenant;

beforeAll(async () => {
  // The module's blob intent sweep only when woken: bytes of a crashed delete stay until the test looks.
  env = await startUploadPlatform("media_deleted_urls", { BLOB_INTENT_SWEEP_INTERVAL_MS: "3600000" });
  store = createFilesystemBlobStore({ root: env.blobDir });
  t = await env.tenant();
}, 60_000);
afterAll(() => env?.close());

const knex = () => env.platform.knexOf("media");

interface Uploaded {
  id: string;
  location: string;
  thumbnail: string;
  keys: { storage: string; thumbnail: string };
}

async function upload(name: string, parentId = t.rootId, data = png(3, 3)): Promise<Uploaded> {
  const res = await env.platform.http.post("/api/file", {
    token: t.editor.token,
    query: { parentId },
    body: multipart([
      { name: "files[]", filename: name, type: "image/png", data },
      { name: "previews[]", filename: name, type: "image/png", data: png(1, 1) },
    ]),
  });
  expect(res.status, res.text).toBe(200);
  const row = await knex()("file").where({ id: res.body[0].id }).first();
  return { id: row.id, location: res.body[0].location, thumbnail: res.body[0].thumbnail, keys: { storage: row.storage_key, thumbnail: row.thumbnail_key } };
}

/** GET of a signed URL (no token): its status and body. */
async function fetchUrl(url: string): Promise<{ status: number; body: Buffer }> {
  const res = await fetch(new URL(pathOf(url), env.platform.url));
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

async function expectGone(url: string, what: string) {
  const res = await fetch(new URL(pathOf(url), env.platform.url));
  expect(res.status, what).toBe(404);
  expect(await res.json(), what).toMatchObject({ status: 404, error: "Not Found", key: "storage.error.blobNotFound" });
}

const stored = async (key: string) => (await store.stat(key)) !== undefined;

describe("'location | download URL', 'thumbnail | thumbnail URL': a deleted file's URLs stop serving at once", { timeout: 60_000 }, () => {
  it("DELETE /api/file/{fileId}: both URLs answer 404 right after the response; another file's URLs still serve", async () => {
    const kept = await upload("kept.png");
    const gone = await upload("gone.png");
    expect((await fetchUrl(gone.location)).status).toBe(200);
    const del = await env.platform.http.delete(`/api/file/${gone.id}`, { token: t.editor.token });
    expect(del.status, del.text).toBeLessThan(300);
    await expectGone(gone.location, "location");
    await expectGone(gone.thumbnail, "thumbnail");
    expect((await fetchUrl(kept.location)).status).toBe(200);
    expect((await fetchUrl(kept.thumbnail)).status).toBe(200);
  });

  it("the delete is committed but its bytes are not removed yet (a crash before the removal after commit): 404 although the bytes are still stored", async () => {
    const crashed = await upload("crashed.png");
    // The delete's own transaction (file-delete.ts), without what runs after its commit.
    await knex().transaction((trx) => deleteFileRows(trx, teamsNotAvailable, t.id, [crashed.id]));
    expect(await stored(crashed.keys.storage)).toBe(true);
    expect(await stored(crashed.keys.thumbnail)).toBe(true);
    await expectGone(crashed.location, "location");
    await expectGone(crashed.thumbnail, "thumbnail");
  });

  it("a folder whose files have more blobs than a request removes itself (left to the sweep): every URL is 404 right after DELETE /api/fileFolder/{id}", async () => {
    const made = await env.platform.http.post("/api/fileFolder/", { token: t.editor.token, query: { parentId: t.rootId, name: "big" } });
    expect(made.status, made.text).toBe(200);
    const count = Math.floor(INLINE_BLOB_REMOVALS / 2) + 1;
    const parts = Array.from({ length: count }, (_, i) => [
      { name: "files[]", filename: `f${i}.png`, type: "image/png", data: png(2, 2) },
      { name: "previews[]", filename: `f${i}.png`, type: "image/png", data: png(1, 1) },
    ]).flat();
    const res = await env.platform.http.post("/api/file", { token: t.editor.token, query: { parentId: made.body.id }, body: multipart(parts) });
    expect(res.status, res.text).toBe(200);
    const urls = (res.body as { location: string; thumbnail: string }[]).flatMap((f) => [f.location, f.thumbnail]);
    expect(urls.length).toBeGreaterThan(INLINE_BLOB_REMOVALS);
    const del = await env.platform.http.delete(`/api/fileFolder/${made.body.id}`, { token: t.editor.token });
    expect(del.status, del.text).toBeLessThan(300);
    const statuses = await Promise.all(urls.map(async (url) => (await fetch(new URL(pathOf(url), env.platform.url))).status));
    expect(new Set(statuses)).toEqual(new Set([404]));
  });
});

describe("'A replace operation swaps all references from one file to another': replaced files", { timeout: 60_000 }, () => {
  it("replaceFileReference with removeOldFile: the old file's URLs are 404 (also while its bytes wait for removal); without removeOldFile both files still serve", async () => {
    const source = await upload("source.png", t.rootId, png(5, 5));
    const kept = await upload("kept-old.png");
    const put = (query: Record<string, string | boolean>) => env.platform.http.put("/api/file/replaceFileReference", { token: t.owner.token, query });
    const keep = await put({ fileIdToReplace: kept.id, sourceFileId: source.id });
    expect(keep.status, keep.text).toBeLessThan(300);
    expect((await fetchUrl(kept.location)).status).toBe(200);

    const removed = await upload("removed-old.png");
    const replaced = await put({ fileIdToReplace: removed.id, sourceFileId: source.id, removeOldFile: true });
    expect(replaced.status, replaced.text).toBeLessThan(300);
    await expectGone(removed.location, "old location");
    await expectGone(removed.thumbnail, "old thumbnail");
    expect((await fetchUrl(source.location)).status).toBe(200);

    // The replace's transaction committed, the process died before the old bytes went.
    const crashed = await upload("crashed-old.png");
    const outbox = createOutbox({ knex: knex(), bus: env.platform.bus });
    await knex().transaction((trx) =>
      replaceFileInTransaction(trx, { teams: teamsNotAvailable, outbox }, { customerId: t.id, fileIdToReplace: crashed.id, sourceFileId: source.id, removeOldFile: true }),
    );
    expect(await stored(crashed.keys.storage)).toBe(true);
    await expectGone(crashed.location, "old location after a crash");
    await expectGone(crashed.thumbnail, "old thumbnail after a crash");
    expect((await fetchUrl(source.location)).status).toBe(200);
  });

  it("an upload with fileIdToReplace and removeOldFile: the old file's URLs are 404, the new file's serve", async () => {
    const old = await upload("to-replace.png");
    const res = await env.platform.http.post("/api/file", {
      token: t.editor.token,
      query: { fileIdToReplace: old.id, removeOldFile: true },
      body: multipart([{ name: "files[]", filename: "replacement.png", type: "image/png", data: png(7, 7) }]),
    });
    expect(res.status, res.text).toBe(200);
    await expectGone(old.location, "old location");
    await expectGone(old.thumbnail, "old thumbnail");
    expect((await fetchUrl(res.body[0].location)).status).toBe(200);
  });

  it("a new thumbnail replaces the old one: the old thumbnail URL is 404 (also while its bytes wait for removal), the new one serves", async () => {
    const file = await upload("thumbed.png");
    const next = png(6, 6);
    const put = await env.platform.http.put(`/api/v2/file/upload/${file.id}/thumbnail`, { token: t.editor.token, body: next, headers: { "content-type": "image/png" } });
    expect(put.status, put.text).toBe(204);
    await expectGone(file.thumbnail, "old thumbnail");
    const listed = await env.platform.http.get("/api/v2/file", { token: t.viewer.token, query: { search: `id=${file.id}`, select: "thumbnail" } });
    const fresh = await fetchUrl(listed.body.content[0].thumbnail);
    expect(fresh.status).toBe(200);
    expect(fresh.body.equals(next)).toBe(true);

    // The thumbnail upload's transaction (thumbnail-upload.ts) committed; the old bytes are still stored.
    const before = await knex()("file").where({ id: file.id }).first("thumbnail_key");
    const newer = `thumbnails/${t.id}/${file.id}-test.png`;
    await store.put(newer, png(2, 2));
    await knex().transaction(async (trx) => {
      await setThumbnailKey(trx, t.id, file.id, newer);
      await scheduleBlobRemoval(trx, t.id, [before.thumbnail_key]);
    });
    expect(await stored(before.thumbnail_key)).toBe(true);
    await expectGone(listed.body.content[0].thumbnail, "replaced thumbnail after a crash");
  });
});
