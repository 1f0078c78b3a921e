// "No garbage left behind by a crash", for deletes: the transaction that removes
// a blob's owner (file, folder, validity sweep, replace, private app, customer)
// records the blob's removal intent as due; the bytes go after commit, and when
// a crash or a failed store delete comes in between, the next intent sweep
// finishes them whatever the grace period. Real PostgreSQL, filesystem store,
// HTTP through the gateway for the normal paths; a crash is the transactional
// part alone, a failed delete a store that refuses once.
import { readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenantScope } from "@signage/auth";
import { newId } from "@signage/db";
import { createFilesystemBlobStore, type BlobStore } from "@signage/storage";
import type { StreamedBodyPart } from "@signage/contracts/signage/common/v1/stream_pb";
import { recordBlobIntents, scheduleBlobRemoval, sweepBlobIntents } from "../src/storage/index.js";
import { deleteFileRows, INLINE_BLOB_REMOVALS, removeDeletedBlobsAfterResponse } from "../src/files/file-delete.js";
import type { FileDeps } from "../src/files/file-deps.js";
import { type WakeSignal } from "@signage/runtime";
import { teamsNotAvailable } from "../src/files/team-hooks.js";
import { deleteFolderTree } from "../src/folders/folder-delete.js";
import { sweepOutdatedFiles } from "../src/validity/validity-sweep.js";
import { uploadPackage } from "../src/custom-apps/package-upload.js";
import { packageLocation } from "../src/custom-apps/package-keys.js";
import { storePackage } from "../src/custom-apps/package-store.js";
import { DEFAULT_ZIP_LIMITS } from "../src/custom-apps/package/zip-limits.js";
import { eventually } from "@signage/testing";
import { multipart, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";
import { serviceDeps } from "./support/service-deps.js";
import { widgetZip } from "./support/custom-apps-zip.js";
import { packageForm } from "./support/custom-apps-platform.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let store: BlobStore;
let t: UploadTenant;

beforeAll(async () => {
  // The module's own intent sweep stays out of the way: every sweep here is the test's.
  env = await startUploadPlatform("media_blob_removal", { BLOB_INTENT_SWEEP_INTERVAL_MS: "3600000" });
  store = createFilesystemBlobStore({ root: env.blobDir });
  t = await env.tenant();
}, 60_000);
afterAll(() => env?.close());

const knex = () => env.platform.knexOf("media");
const HOUR = 60 * 60 * 1000;

function depsWith(blobs: BlobStore, blobSweep?: WakeSignal): FileDeps {
  return serviceDeps(knex(), env.platform.bus, blobs, blobSweep);
}

/** A store whose delete fails the first time for each key (and for each folder key). */
function failingOnce(): BlobStore {
  const failed = new Set<string>();
  const refuse = async (key: string, go: () => Promise<void>) => {
    if (failed.has(key)) return go();
    failed.add(key);
    throw new Error(`store unavailable for ${key}`);
  };
  return { ...store, delete: (key) => refuse(key, () => store.delete(key)), deletePrefix: (prefix) => refuse(prefix, () => store.deletePrefix(prefix)) };
}

async function intentsOf(customerId: number): Promise<Array<{ key: string; due: boolean }>> {
  const rows = await knex()("blob_intent").where({ customer_id: customerId }).orderBy("key").select("key", "due_at");
  return rows.map((r: { key: string; due_at: Date | null }) => ({ key: r.key, due: r.due_at !== null }));
}

async function exists(key: string): Promise<boolean> {
  return (await store.stat(key)) !== undefined;
}

/** Every stored blob below a folder of keys (relative to the blob root). */
async function blobsUnder(folder: string): Promise<string[]> {
  try {
    const entries = await readdir(join(env.blobDir, folder), { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => e.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

/** Uploads one file with its preview over HTTP; returns the id and both blob keys. */
async function uploaded(parentId: string, name = "pic.png"): Promise<{ id: string; keys: string[] }> {
  const res = await env.platform.http.post("/api/file", {
    token: t.editor.token,
    query: { parentId },
    body: multipart([
      { name: "files[]", filename: name, type: "image/png", data: png(3, 3) },
      { name: "previews[]", filename: name, type: "image/png", data: png(1, 1) },
    ]),
  });
  expect(res.status, res.text).toBe(200);
  const row = await knex()("file").where({ id: res.body[0].id }).first();
  return { id: row.id, keys: [row.storage_key, row.thumbnail_key].sort() };
}

async function folder(parentId: string, name: string, extra: Record<string, string | boolean> = {}): Promise<string> {
  const res = await env.platform.http.post("/api/fileFolder/", { token: t.editor.token, query: { parentId, name, ...extra } });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

const due = (keys: string[]) => keys.map((key) => ({ key, due: true }));

describe("deleting a blob's owner is crash-safe: due intents, the sweep finishes", { timeout: 60_000 }, () => {
  it("scheduled removals are taken at once (whatever the grace), write-ahead intents only past it; a folder key removes everything below it", async () => {
    const u = await env.tenant();
    const written = `files/${u.id}/written.png`;
    await recordBlobIntents(knex(), u.id, [written]);
    await store.put(written, png(1, 1));
    const inside = [`custom-apps/${u.id}/9/x/a.js`, `custom-apps/${u.id}/9/x/sub/b.js`];
    for (const key of inside) await store.put(key, Buffer.from("x"));
    const disowned = await knex().transaction((trx) => scheduleBlobRemoval(trx, u.id, [`custom-apps/${u.id}/9/x/`, null, `custom-apps/${u.id}/9/x/`]));
    expect(disowned).toEqual([`custom-apps/${u.id}/9/x/`]);

    expect(await sweepBlobIntents(knex(), store, { graceMs: HOUR })).toBe(1);
    for (const key of inside) expect(await exists(key), key).toBe(false);
    expect(await exists(written)).toBe(true);
    expect(await intentsOf(u.id)).toEqual([{ key: written, due: false }]);
    // A rolled-back schedule leaves nothing due.
    await knex().transaction(async (trx) => {
      await scheduleBlobRemoval(trx, u.id, [written]);
      await trx.rollback();
    }).catch(() => undefined);
    expect(await intentsOf(u.id)).toEqual([{ key: written, due: false }]);
    // An owner deleted after all: the write-ahead intent becomes due.
    await knex().transaction((trx) => scheduleBlobRemoval(trx, u.id, [written]));
    expect(await sweepBlobIntents(knex(), store, { graceMs: HOUR })).toBe(1);
    expect(await exists(written)).toBe(false);
    expect(await intentsOf(u.id)).toEqual([]);
  });

  it("file delete: over HTTP the blobs and intents go; a crash after the commit leaves due intents that the next sweep finishes", async () => {
    const gone = await uploaded(t.rootId, "gone.png");
    const del = await env.platform.http.delete(`/api/file/${gone.id}`, { token: t.editor.token });
    expect(del.status, del.text).toBeLessThan(300);
    for (const key of gone.keys) expect(await exists(key), key).toBe(false);
    expect(await intentsOf(t.id)).toEqual([]);

    const crashed = await uploaded(t.rootId, "crashed.png");
    // The delete's transaction commits; the process dies before the blobs are deleted.
    await knex().transaction((trx) => deleteFileRows(trx, teamsNotAvailable, t.id, [crashed.id]));
    expect(await knex()("file").where({ id: crashed.id }).first()).toBeUndefined();
    for (const key of crashed.keys) expect(await exists(key), key).toBe(true);
    expect(await intentsOf(t.id)).toEqual(due(crashed.keys));
    expect(await sweepBlobIntents(knex(), store, { graceMs: HOUR })).toBe(2);
    for (const key of crashed.keys) expect(await exists(key), key).toBe(false);
    expect(await intentsOf(t.id)).toEqual([]);
  });

  it("folder delete (and removeBatch): over HTTP nothing is left; a crash after the commit leaves the subtree's blobs due", async () => {
    const doomed = await folder(t.rootId, "doomed");
    const a = await uploaded(doomed, "a.png");
    const b = await uploaded(await folder(doomed, "inner"), "b.png");
    const row = await knex()("file_folder").where({ id: doomed }).first();
    await knex().transaction((trx) => deleteFolderTree(trx, depsWith(store), row));
    const keys = [...a.keys, ...b.keys].sort();
    for (const key of keys) expect(await exists(key), key).toBe(true);
    expect(await intentsOf(t.id)).toEqual(due(keys));
    expect(await sweepBlobIntents(knex(), store, { graceMs: HOUR })).toBe(4);
    for (const key of keys) expect(await exists(key), key).toBe(false);
    expect(await intentsOf(t.id)).toEqual([]);

    const viaHttp = await folder(t.rootId, "via-http");
    const c = await uploaded(viaHttp, "c.png");
    expect((await env.platform.http.delete(`/api/fileFolder/${viaHttp}`, { token: t.editor.token })).status).toBeLessThan(300);
    const batched = await folder(t.rootId, "batched");
    const d = await uploaded(batched, "d.png");
    const e = await uploaded(t.rootId, "e.png");
    const batch = await env.platform.http.post("/api/fileFolder/removeBatch", { token: t.editor.token, body: { fileIds: [e.id], folderIds: [batched] } });
    expect(batch.status, batch.text).toBeLessThan(300);
    for (const key of [...c.keys, ...d.keys, ...e.keys]) expect(await exists(key), key).toBe(false);
    expect(await intentsOf(t.id)).toEqual([]);
  });

  it("a request waits for a few blob deletes; a big folder's are the blob intent sweep's, woken at once (no work left in the request)", async () => {
    const deleted: string[] = [];
    const counting: BlobStore = {
      ...store,
      async delete(key) {
        deleted.push(key);
        return store.delete(key);
      },
    };
    let wakes = 0;
    const blobSweep = { wake: () => void wakes++ };
    const blobsOf = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ fileId: `${tag}-${i}`, storageKey: `files/${t.id}/${tag}-${i}.png`, thumbnailKey: null }));
    const small = blobsOf(INLINE_BLOB_REMOVALS, "small");
    const big = blobsOf(INLINE_BLOB_REMOVALS + 1, "big");
    await knex().transaction((trx) => scheduleBlobRemoval(trx, t.id, [...small, ...big].map((b) => b.storageKey)));

    await removeDeletedBlobsAfterResponse(depsWith(counting, blobSweep), t.id, small);
    expect([deleted.length, wakes]).toEqual([small.length, 0]);
    await removeDeletedBlobsAfterResponse(depsWith(counting, blobSweep), t.id, big);
    expect([deleted.length, wakes]).toEqual([small.length, 1]);
    expect(await intentsOf(t.id)).toEqual(due(big.map((b) => b.storageKey).sort()));
    // What the woken sweep does: the big set's intents (and bytes) go, each key once.
    expect(await sweepBlobIntents(knex(), counting, { graceMs: HOUR })).toBe(big.length);
    expect(await intentsOf(t.id)).toEqual([]);
    expect(new Set(deleted).size).toBe(deleted.length);
  });

  it("over HTTP, deleting a folder of more than 200 files answers after the commit; the woken sweep removes the bytes (its own schedule is 5 minutes away)", async () => {
    const bigFolder = await folder(t.rootId, "big");
    const row = await knex()("file_folder").where({ id: bigFolder }).first();
    const files = Array.from({ length: INLINE_BLOB_REMOVALS + 1 }, (_, i) => {
      const id = newId();
      return { id, customer_id: t.id, name: `big-${i}.png`, content_type: "image/png", type: "IMAGE", size: 1, file_folder_id: bigFolder, path: row.path, storage_key: `files/${t.id}/${id}.png` };
    });
    await knex()("file").insert(files);
    for (const f of files) await store.put(f.storage_key, Buffer.from("x"));
    const del = await env.platform.http.delete(`/api/fileFolder/${bigFolder}`, { token: t.editor.token });
    expect(del.status, del.text).toBeLessThan(300);
    // Blobs first, then (in the sweep's claiming transaction) their intents: wait for both.
    const keys = new Set(files.map((f) => f.storage_key));
    const left = async () => (await Promise.all(files.map((f) => exists(f.storage_key)))).filter(Boolean).length + (await intentsOf(t.id)).filter((i) => keys.has(i.key)).length;
    await eventually(left, (n) => n === 0, "the woken sweep removed every blob and its intent", 10_000);
  });

  it("validity sweep: a store delete failing after the commit leaves the blobs due; the next intent sweep removes them", async () => {
    const clean = await folder(t.rootId, "outdated", { cleanupOutdatedFiles: true });
    const old = await uploaded(clean, "old.png");
    await knex()("file").where({ id: old.id }).update({ valid_to: Date.now() - 1000 });
    expect(await sweepOutdatedFiles(depsWith(failingOnce()))).toBeGreaterThanOrEqual(1);
    expect(await knex()("file").where({ id: old.id }).first()).toBeUndefined();
    for (const key of old.keys) expect(await exists(key), key).toBe(true);
    expect(await intentsOf(t.id)).toEqual(due(old.keys));
    expect(await sweepBlobIntents(knex(), store, { graceMs: HOUR })).toBe(2);
    for (const key of old.keys) expect(await exists(key), key).toBe(false);
    expect(await intentsOf(t.id)).toEqual([]);
  });

  it("replaceFileReference with removeOldFile: the old file's blobs go with no intent left", async () => {
    const oldFile = await uploaded(t.rootId, "old-ref.png");
    const source = await uploaded(t.rootId, "new-ref.png");
    const res = await env.platform.http.put("/api/file/replaceFileReference", { token: t.owner.token, query: { fileIdToReplace: oldFile.id, sourceFileId: source.id, removeOldFile: true } });
    expect(res.status, res.text).toBeLessThan(300);
    for (const key of oldFile.keys) expect(await exists(key), key).toBe(false);
    for (const key of source.keys) expect(await exists(key), key).toBe(true);
    expect(await intentsOf(t.id)).toEqual([]);
  });
});

describe("private app packages: write-ahead folder intent, scheduled removal of replaced and deleted packages", { timeout: 60_000 }, () => {
  const BASE = "/api/customApp/myApps";

  async function app(name: string): Promise<number> {
    const res = await env.platform.http.post(BASE, { token: t.owner.token, body: { name } });
    expect(res.status, res.text).toBe(200);
    return Number(res.body.id);
  }

  async function* partsOf(zip: Buffer): AsyncIterable<StreamedBodyPart> {
    yield { kind: { case: "head", value: { field: "file", filename: "package.zip", contentType: "application/zip" } } } as unknown as StreamedBodyPart;
    yield { kind: { case: "chunk", value: new Uint8Array(zip) } } as unknown as StreamedBodyPart;
  }

  it("an upload failing midway (the store refuses an entry) leaves no blob and no intent", async () => {
    const id = await app("Half written");
    const zip = await widgetZip({ name: "half", version: "1" }, { "js/a.js": "a()", "js/b.js": "b()", "js/c.js": "c()" });
    let puts = 0;
    const flaky: BlobStore = {
      ...store,
      async put(key, body, options) {
        if (++puts === 4) throw new Error("disk full");
        return store.put(key, body, options);
      },
    };
    const failed = await uploadPackage({ knex: knex(), store: flaky, newId, limits: DEFAULT_ZIP_LIMITS, scope: tenantScope(t.id), id, parts: partsOf(zip) }).then(() => undefined, (e: unknown) => e);
    expect(String(failed)).toContain("disk full");
    expect(puts).toBe(4);
    expect(await blobsUnder(`custom-apps/${t.id}/${id}`)).toEqual([]);
    expect(await intentsOf(t.id)).toEqual([]);
    expect((await knex()("custom_app").where({ id }).first()).package_key).toBeNull();
  });

  it("a crash between writing the package and the row's commit leaves its folder intent: swept with every blob once past the grace", async () => {
    const id = await app("Crashed upload");
    const location = packageLocation(t.id, id, newId());
    // What uploadPackage does before the row's transaction, then "crash".
    await recordBlobIntents(knex(), t.id, [location.folder]);
    const zipPath = join(tmpdir(), `crashed-package-${id}-${Date.now()}.zip`);
    const zip = await widgetZip({ name: "crashed", version: "1" });
    await writeFile(zipPath, zip);
    await storePackage(store, zipPath, zip.length, location, DEFAULT_ZIP_LIMITS);
    await rm(zipPath);
    expect(await blobsUnder(location.folder)).not.toEqual([]);
    expect(await intentsOf(t.id)).toEqual([{ key: location.folder, due: false }]);
    expect(await sweepBlobIntents(knex(), store, { graceMs: HOUR })).toBe(0);
    expect(await sweepBlobIntents(knex(), store, { graceMs: 0 })).toBe(1);
    expect(await blobsUnder(location.folder)).toEqual([]);
    expect(await intentsOf(t.id)).toEqual([]);
  });

  it("over HTTP: a replaced package's blobs and a deleted app's blobs go, and no intent is left", async () => {
    const id = await app("Replaced");
    const first = await env.platform.http.post(`${BASE}/${id}/upload`, { token: t.owner.token, body: packageForm(await widgetZip({ name: "replaced", version: "1" }, { "js/a.js": "a()" })) });
    expect(first.status, first.text).toBe(200);
    const firstRow = await knex()("custom_app").where({ id }).first();
    expect(await intentsOf(t.id)).toEqual([]);
    const second = await env.platform.http.post(`${BASE}/${id}/upload`, { token: t.owner.token, body: packageForm(await widgetZip({ name: "replaced", version: "2" })) });
    expect(second.status, second.text).toBe(200);
    const secondRow = await knex()("custom_app").where({ id }).first();
    expect(await exists(firstRow.package_key)).toBe(false);
    expect(await blobsUnder(firstRow.app_root_path)).toEqual([]);
    expect(await exists(secondRow.package_key)).toBe(true);
    expect(await intentsOf(t.id)).toEqual([]);

    expect((await env.platform.http.delete(`${BASE}/${id}`, { token: t.owner.token })).status).toBeLessThan(300);
    expect(await blobsUnder(`custom-apps/${t.id}/${id}`)).toEqual([]);
    expect(await intentsOf(t.id)).toEqual([]);
  });
});

describe("customer deletion", { timeout: 60_000 }, () => {
  it("the tenant's blob folders go through due intents; its write-ahead intents stay for the sweep", async () => {
    const u = await env.tenant();
    const f = await env.platform.http.post("/api/file", { token: u.editor.token, body: multipart([{ name: "files[]", filename: "x.png", type: "image/png", data: png(2, 2) }]) });
    expect(f.status, f.text).toBe(200);
    // An upload still writing when the customer is deleted.
    const inflight = `files/${u.id}/inflight.png`;
    await recordBlobIntents(knex(), u.id, [inflight]);
    await store.put(inflight, png(1, 1));

    const del = await env.platform.http.delete(`/api/customer/${u.id}`, { token: env.admin });
    expect(del.status, del.text).toBe(204);
    const until = Date.now() + 10_000;
    while ((await blobsUnder(`files/${u.id}`)).length > 0 || (await intentsOf(u.id)).some((i) => i.due)) {
      if (Date.now() > until) throw new Error("the customer's blobs were never deleted");
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(await intentsOf(u.id)).toEqual([{ key: inflight, due: false }]);
    // Bytes the upload writes after the purge are still covered.
    await store.put(inflight, png(1, 1));
    expect(await sweepBlobIntents(knex(), store, { graceMs: 0 })).toBeGreaterThanOrEqual(1);
    expect(await exists(inflight)).toBe(false);
    expect(await intentsOf(u.id)).toEqual([]);
  });
});
