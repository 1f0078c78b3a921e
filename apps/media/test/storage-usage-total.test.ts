// The customer's used storage, as uploads check their quota and the statistics
// report it, over HTTP through the gateway. Document 2 "Customer": "storageSize |
// long | bytes, null = unlimited, ADMIN only"; document 1 "Errors": "Other upload
// outcomes preserved by the service | 400, 401, 403, 404, 413, 415, 507" and
// "Storage statistics: totalAvailableStorageSize, totalUsedStorageSize,
// usedDatasourceResourceStorageSize, usedUploadedFileStorageSize (integers,
// bytes)". The used bytes are a total the database keeps per customer
// (storage_usage), exact after every commit whichever way files come and go, and
// read by primary key: an upload never sums the customer's files. Concurrent
// uploads never go past the quota together; the ones that would get the 507.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@signage/testing";
import { multipart, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

const MAX_CHUNK = 64 * 1024;
let env: Awaited<ReturnType<typeof startUploadPlatform>>;

beforeAll(async () => {
  env = await startUploadPlatform("media_storage_usage", { UPLOAD_MAX_CHUNK_SIZE: String(MAX_CHUNK) });
}, 60_000);
afterAll(() => env?.close());

const knex = () => env.platform.knexOf("media");
const http = () => env.platform.http;

function upload(t: UploadTenant, name: string, data: Buffer | string, query: Record<string, string | boolean> = {}) {
  const type = name.endsWith(".png") ? "image/png" : "application/json";
  return http().post("/api/file", { token: t.editor.token, query, body: multipart([{ name: "files[]", filename: name, type, data }]) });
}

async function folder(t: UploadTenant, parentId: string, name: string): Promise<string> {
  const res = await http().post("/api/fileFolder/", { token: t.editor.token, query: { parentId, name } });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

/** The sum over the files themselves, the kept total, and what the statistics say. */
async function usage(t: UploadTenant) {
  const [{ bytes }] = await knex()("file").where({ customer_id: t.id }).sum({ bytes: "size" });
  const row = await knex()("storage_usage").where({ customer_id: t.id }).first("files_bytes");
  const stats = await http().get("/api/v2/file/storageStatistics", { token: t.viewer.token });
  expect(stats.status, stats.text).toBe(200);
  return { files: Number(bytes ?? 0), kept: Number(row?.files_bytes ?? 0), reported: stats.body.usedUploadedFileStorageSize as number };
}

async function expectExact(t: UploadTenant, files: number) {
  expect(await usage(t)).toEqual({ files, kept: files, reported: files });
}

async function chunked(t: UploadTenant, name: string, data: Buffer) {
  const init = await http().post("/api/v2/file/upload/init", { token: t.editor.token, body: { name, size: data.length, totalChunks: 1, contentType: "application/json" } });
  expect(init.status, init.text).toBe(200);
  const part = await http().put(`/api/v2/file/upload/${init.body.uploadId}/part/1`, { token: t.editor.token, body: data, headers: { "content-type": "application/octet-stream" } });
  expect(part.status, part.text).toBe(200);
  return http().post(`/api/v2/file/upload/${init.body.uploadId}/complete`, { token: t.editor.token });
}

describe("'usedUploadedFileStorageSize (integers, bytes)': the kept total follows every way files come and go", { timeout: 60_000 }, () => {
  it("simple and chunked uploads, replace with removeOldFile (both ways), file delete, removeBatch, folder delete: total = sum of the files after each", async () => {
    const t = await env.tenant();
    await expectExact(t, 0);
    const two = await http().post("/api/file", {
      token: t.editor.token,
      body: multipart([
        { name: "files[]", filename: "a.json", type: "application/json", data: "a".repeat(1000) },
        { name: "files[]", filename: "b.json", type: "application/json", data: "b".repeat(2000) },
      ]),
    });
    expect(two.status, two.text).toBe(200);
    await expectExact(t, 3000);
    const big = await chunked(t, "c.json", Buffer.alloc(5000, 0x20));
    expect(big.status, big.text).toBe(200);
    await expectExact(t, 8000);

    const replacing = await upload(t, "a2.json", "x".repeat(700), { fileIdToReplace: two.body[0].id, removeOldFile: true });
    expect(replacing.status, replacing.text).toBe(200);
    await expectExact(t, 7700);
    const source = (await upload(t, "s.json", "s".repeat(300))).body[0];
    const replaced = await http().put("/api/file/replaceFileReference", { token: t.owner.token, query: { fileIdToReplace: two.body[1].id, sourceFileId: source.id, removeOldFile: true } });
    expect(replaced.status, replaced.text).toBeLessThan(300);
    await expectExact(t, 6000);

    expect((await http().delete(`/api/file/${big.body.id}`, { token: t.editor.token })).status).toBeLessThan(300);
    await expectExact(t, 1000);

    const outer = await folder(t, t.rootId, "outer");
    const inner = await folder(t, outer, "inner");
    for (const [parentId, n] of [[outer, 100], [inner, 200], [inner, 400]] as const) {
      expect((await upload(t, `f${n}.json`, "f".repeat(n), { parentId })).status).toBe(200);
    }
    const loose = (await upload(t, "loose.json", "l".repeat(50))).body[0];
    await expectExact(t, 1750);
    const batch = await http().post("/api/fileFolder/removeBatch", { token: t.editor.token, body: { fileIds: [loose.id], folderIds: [inner] } });
    expect(batch.status, batch.text).toBeLessThan(300);
    await expectExact(t, 1100);
    expect((await http().delete(`/api/fileFolder/${outer}`, { token: t.editor.token })).status).toBeLessThan(300);
    await expectExact(t, 1000);
  });

  it("a deleted customer's total goes with its files", async () => {
    const t = await env.tenant();
    expect((await upload(t, "gone.json", "g".repeat(10))).status).toBe(200);
    expect(await knex()("storage_usage").where({ customer_id: t.id }).first()).toBeDefined();
    const del = await http().delete(`/api/customer/${t.id}`, { token: env.admin });
    expect(del.status, del.text).toBeLessThan(300);
    await eventually(() => knex()("file").where({ customer_id: t.id }), (rows) => rows.length === 0, "files purged");
    expect(await knex()("storage_usage").where({ customer_id: t.id })).toEqual([]);
    expect(await knex()("storage_usage_delta").where({ customer_id: t.id })).toEqual([]);
  });

  it("concurrent uploads, deletes and a folder delete while uploads go into it: no 500, and afterwards total = sum of the files", async () => {
    const t = await env.tenant();
    const doomed = await folder(t, t.rootId, "doomed");
    const early = await Promise.all(Array.from({ length: 6 }, (_, i) => upload(t, `early-${i}.json`, "e".repeat(100 + i))));
    const work = [
      ...Array.from({ length: 8 }, (_, i) => upload(t, `late-${i}.json`, "l".repeat(1000 + i))),
      ...Array.from({ length: 6 }, (_, i) => upload(t, `into-${i}.json`, "d".repeat(500 + i), { parentId: doomed })),
      ...early.map((r) => http().delete(`/api/file/${r.body[0].id}`, { token: t.editor.token })),
      http().delete(`/api/fileFolder/${doomed}`, { token: t.editor.token }),
      chunked(t, "chunk.json", Buffer.alloc(3000, 0x20)),
    ];
    const statuses = (await Promise.all(work)).map((r) => r.status);
    expect(statuses.filter((s) => s >= 500), statuses.join(",")).toEqual([]);
    const { files, kept, reported } = await usage(t);
    expect(kept).toBe(files);
    expect(reported).toBe(files);
    expect(files).toBeGreaterThanOrEqual(8 * 1000 + 3000);
  });
});

describe("'Other upload outcomes preserved by the service | ... 507': the quota holds under concurrent uploads", { timeout: 60_000 }, () => {
  it("room for 3 files, 8 uploads at once (simple and chunked): exactly 3 are stored, the other 5 get 507 storage.error.insufficientStorage, nothing half-written", async () => {
    const t = await env.tenant();
    const size = 4000;
    await env.setStorageSize(t.id, Math.floor(3.5 * size));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? upload(t, `q-${i}.json`, "q".repeat(size)) : chunked(t, `q-${i}.json`, Buffer.alloc(size, 0x71)))),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 507, 507, 507, 507, 507]);
    for (const r of results.filter((r) => r.status === 507)) {
      expect(r.body).toMatchObject({ status: 507, key: "storage.error.insufficientStorage" });
    }
    const rows = await knex()("file").where({ customer_id: t.id });
    expect(rows).toHaveLength(3);
    await expectExact(t, 3 * size);
    // What a refused upload wrote is gone again: only the stored files' blobs are left.
    const intents = await knex()("blob_intent").where({ customer_id: t.id });
    expect(intents).toEqual([]);
  });

  it("a delete frees its bytes for the next upload at once", async () => {
    const t = await env.tenant();
    await env.setStorageSize(t.id, 5000);
    const first = await upload(t, "a.json", "x".repeat(3000));
    expect(first.status, first.text).toBe(200);
    expect((await upload(t, "b.json", "x".repeat(3000))).status).toBe(507);
    expect((await http().delete(`/api/file/${first.body[0].id}`, { token: t.editor.token })).status).toBeLessThan(300);
    const again = await upload(t, "b.json", "x".repeat(3000));
    expect(again.status, again.text).toBe(200);
  });

  it("an upload's quota check reads the kept total: no statement sums the customer's file sizes (simple, chunked, statistics)", async () => {
    const t = await env.tenant();
    await env.setStorageSize(t.id, 1_000_000);
    const statements: string[] = [];
    const listen = (q: { sql: string }) => void statements.push(q.sql);
    knex().on("query", listen);
    try {
      expect((await upload(t, "p.png", png(4, 4))).status).toBe(200);
      expect((await chunked(t, "c.json", Buffer.alloc(100, 0x20))).status).toBe(200);
      expect((await http().get("/api/v2/file/storageStatistics", { token: t.viewer.token })).status).toBe(200);
    } finally {
      knex().off("query", listen);
    }
    expect(statements.length).toBeGreaterThan(0);
    const sums = statements.filter((sql) => /\bsum\s*\(/i.test(sql) && /\bfrom\s+"?file"?(\s|$)/i.test(sql));
    expect(sums).toEqual([]);
  });
});
