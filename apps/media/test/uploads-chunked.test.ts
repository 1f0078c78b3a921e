// Chunked upload sessions exactly as document 1's state table, over HTTP
// through the gateway, against PostgreSQL and the filesystem blob store
// (presigned part URLs are HMAC-signed gateway URLs).
import { crc32 } from "@node-rs/crc32";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepExpiredSessions } from "../src/uploads/index.js";
import { createFilesystemBlobStore } from "@signage/storage";
import { pathOf, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

const MAX_CHUNK = 64 * 1024;
let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;

beforeAll(async () => {
  env = await startUploadPlatform("uploads_chunked", { UPLOAD_MAX_CHUNK_SIZE: String(MAX_CHUNK) });
  t = await env.tenant();
}, 60_000);
afterAll(() => env?.close());

const http = () => env.platform.http;
const crcHex = (b: Buffer) => (crc32(b) >>> 0).toString(16).padStart(8, "0");

function init(token: string, body: Record<string, unknown>, query: Record<string, string> = {}) {
  return http().post("/api/v2/file/upload/init", { token, body, query });
}

function putPart(token: string, uploadId: string, n: number, data: Buffer) {
  return http().put(`/api/v2/file/upload/${uploadId}/part/${n}`, { token, body: data, headers: { "content-type": "application/octet-stream" } });
}

function bytes(size: number, seed = 1): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i++) b[i] = (i * 13 + seed) & 0xff;
  return b;
}

describe("chunked upload sessions", { timeout: 30_000 }, () => {
  it("init validates limits: size 1..10737418240, totalChunks 1..10000, chunk size <= maxChunkSize (400 otherwise)", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "a.mp4", size: 0, totalChunks: 1 }, "upload.error.invalidSize"],
      [{ name: "a.mp4", size: 10737418241, totalChunks: 10000 }, "upload.error.invalidSize"],
      [{ name: "a.mp4", size: 100, totalChunks: 0 }, "upload.error.invalidTotalChunks"],
      [{ name: "a.mp4", size: 100_000_000, totalChunks: 10001 }, "upload.error.invalidTotalChunks"],
      [{ name: "a.mp4", size: MAX_CHUNK * 2 + 1, totalChunks: 2 }, "upload.error.chunkTooLarge"],
      [{ name: "", size: 10, totalChunks: 1 }, "file.error.invalidName"],
      [{ name: "a.mp4", size: 10, totalChunks: 1, crcChecksum: "not-hex" }, "upload.error.invalidChecksum"],
    ];
    for (const [body, key] of cases) {
      const res = await init(t.editor.token, { contentType: "video/mp4", ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.key, JSON.stringify(body)).toBe(key);
    }
    const unsupported = await init(t.editor.token, { name: "a.zip", size: 10, totalChunks: 1, contentType: "application/zip" });
    expect(unsupported.status).toBe(415);
  });

  it("init: \"contentType: MIME type, detected by the client; the server validates\" against the kinds table, which is by extension: another kind than the name is 415, no session opens", async () => {
    const sessions = () => env.platform.knexOf("media")("upload_session").where({ customer_id: t.id });
    const before = (await sessions()).length;
    for (const [contentType, name] of [["image/png", "evil.exe"], ["image/svg+xml", "page.html"], ["video/mp4", "still.png"]]) {
      const res = await init(t.editor.token, { name, size: 20, totalChunks: 1, contentType });
      expect(res.status, `${contentType} ${name}: ${res.text}`).toBe(415);
      expect(res.body).toMatchObject({ key: "media.error.unsupportedMediaType", details: { filename: name } });
    }
    expect((await sessions()).length).toBe(before);
    // A generic or missing type is still read from the extension.
    for (const contentType of ["application/octet-stream", undefined]) {
      const res = await init(t.editor.token, { name: "clip.mov", size: 20, totalChunks: 1, ...(contentType ? { contentType } : {}) });
      expect(res.status, res.text).toBe(200);
      await http().delete(`/api/v2/file/upload/${res.body.uploadId}`, { token: t.editor.token });
    }
    // A name without an extension leaves the declared type to decide; .m4v names MPEG-4 video.
    for (const name of ["Summer campaign", "clip.m4v"]) {
      const named = await init(t.editor.token, { name, size: 20, totalChunks: 1, contentType: "video/mp4" });
      expect(named.status, named.text).toBe(200);
      await http().delete(`/api/v2/file/upload/${named.body.uploadId}`, { token: t.editor.token });
    }
  });

  it("init returns uploadId, uploadUrls keyed \"1\"..\"N\", maxChunkSize, name, size, totalChunks", async () => {
    const res = await init(t.editor.token, { name: "clip.mp4", size: 150_000, totalChunks: 3, contentType: "video/mp4" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "clip.mp4", size: 150_000, totalChunks: 3, maxChunkSize: MAX_CHUNK });
    expect(Object.keys(res.body.uploadUrls)).toEqual(["1", "2", "3"]);
    expect(res.body.uploadUrls["2"]).toMatch(/\/storage\/v1\/parts\/[^/]+\/2\?.*expires=.*signature=/);
    await http().delete(`/api/v2/file/upload/${res.body.uploadId}`, { token: t.editor.token });
  });

  it("parts via the API path and via the presigned URL; recover lists uploaded and missing parts; complete assembles, verifies and creates the file", async () => {
    const data = Buffer.concat([png(300, 200), bytes(150_000)]);
    const chunk = Math.ceil(data.length / 3);
    const parts = [data.subarray(0, chunk), data.subarray(chunk, 2 * chunk), data.subarray(2 * chunk)];
    const opened = await init(t.editor.token, { name: "poster.png", size: data.length, totalChunks: 3, contentType: "image/png", tags: ["x"], metaData: { k: 1 }, crcChecksum: crcHex(data).toUpperCase(), parentId: t.rootId, muted: false });
    expect(opened.status, opened.text).toBe(200);
    const { uploadId, uploadUrls } = opened.body;

    const p1 = await putPart(t.editor.token, uploadId, 1, parts[0]);
    expect(p1.status, p1.text).toBe(200);
    expect(p1.body).toMatchObject({ partNumber: 1, uploadedSize: parts[0].length, sessionId: uploadId, success: true });
    expect(p1.body.etag).toBeTruthy();
    // "Upload chunk directly: PUT to the presigned URL": no bearer token.
    const direct = await fetch(new URL(pathOf(uploadUrls["3"]), env.platform.url), { method: "PUT", body: parts[2] });
    expect(direct.status, await direct.clone().text()).toBe(200);

    const recovered = await http().get(`/api/v2/file/upload/${uploadId}/recover`, { token: t.viewer.token });
    expect(recovered.body).toEqual({ uploadId, name: "poster.png", size: data.length, totalChunks: 3, uploadedChunks: [1, 3], missingChunks: [2] });

    // "complete: all chunks uploaded" — not yet.
    const early = await http().post(`/api/v2/file/upload/${uploadId}/complete`, { token: t.editor.token });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ key: "upload.error.missingChunks", details: { missingChunks: [2] } });

    expect((await putPart(t.editor.token, uploadId, 2, parts[1])).status).toBe(200);
    const done = await http().post(`/api/v2/file/upload/${uploadId}/complete`, { token: t.editor.token });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ name: "poster.png", size: data.length, contentType: "image/png", width: 300, height: 200, crcCheckSum: crcHex(data), tags: ["x"], metaData: { k: 1 }, creatorEmail: t.editor.email });
    const downloaded = Buffer.from(await (await fetch(new URL(pathOf(done.body.location), env.platform.url))).arrayBuffer());
    expect(downloaded.equals(data)).toBe(true);
    // "session resources cleaned up": the session is gone.
    expect((await http().get(`/api/v2/file/upload/${uploadId}/recover`, { token: t.viewer.token })).status).toBe(404);
    expect((await http().post(`/api/v2/file/upload/${uploadId}/complete`, { token: t.editor.token })).status).toBe(404);
    // "After completion the client must upload the thumbnail for the new file id."
    const thumb = await http().put(`/api/v2/file/upload/${done.body.id}/thumbnail`, { token: t.editor.token, body: png(2, 2), headers: { "content-type": "image/png" } });
    expect(thumb.status).toBe(204);
  });

  it("part number outside 1..totalChunks is 400; a chunk above maxChunkSize is 413; a tampered presigned URL is 403", async () => {
    const { body } = await init(t.editor.token, { name: "a.mp4", size: 100_000, totalChunks: 2, contentType: "video/mp4" });
    expect((await putPart(t.editor.token, body.uploadId, 3, bytes(10))).body.key).toBe("upload.error.invalidPartNumber");
    expect((await putPart(t.editor.token, body.uploadId, 0, bytes(10))).status).toBe(400);
    const big = await putPart(t.editor.token, body.uploadId, 1, bytes(MAX_CHUNK + 1));
    expect(big.status).toBe(413);
    expect(big.body.key).toBe("upload.error.payloadTooLarge");
    const url = new URL(pathOf(body.uploadUrls["1"]), env.platform.url);
    url.searchParams.set("maxSize", String(10 * MAX_CHUNK));
    const tampered = await fetch(url, { method: "PUT", body: bytes(10) });
    expect(tampered.status).toBe(403);
  });

  it("complete verifies the total size and the optional crcChecksum", async () => {
    const data = bytes(70_000, 3);
    const wrongSize = await init(t.editor.token, { name: "s.mp4", size: data.length + 1, totalChunks: 2, contentType: "video/mp4" });
    await putPart(t.editor.token, wrongSize.body.uploadId, 1, data.subarray(0, 35_000));
    await putPart(t.editor.token, wrongSize.body.uploadId, 2, data.subarray(35_000));
    const sized = await http().post(`/api/v2/file/upload/${wrongSize.body.uploadId}/complete`, { token: t.editor.token });
    expect(sized.status).toBe(400);
    expect(sized.body.key).toBe("upload.error.sizeMismatch");
    // The session stays open: the client can fix the part and complete.
    await putPart(t.editor.token, wrongSize.body.uploadId, 2, Buffer.concat([data.subarray(35_000), Buffer.from([1])]));
    expect((await http().post(`/api/v2/file/upload/${wrongSize.body.uploadId}/complete`, { token: t.editor.token })).status).toBe(200);

    const one = data.subarray(0, 60_000);
    const wrongCrc = await init(t.editor.token, { name: "c.mp4", size: one.length, totalChunks: 1, contentType: "video/mp4", crcChecksum: "deadbeef" });
    expect(wrongCrc.status, wrongCrc.text).toBe(200);
    await putPart(t.editor.token, wrongCrc.body.uploadId, 1, one);
    const crc = await http().post(`/api/v2/file/upload/${wrongCrc.body.uploadId}/complete`, { token: t.editor.token });
    expect(crc.status).toBe(400);
    expect(crc.body).toMatchObject({ key: "upload.error.checksumMismatch", details: { expected: "deadbeef", actual: crcHex(one) } });
    expect(await env.platform.knexOf("media")("file").where({ name: "c.mp4" }).first()).toBeUndefined();
  });

  it("\"the server validates\" contentType against the bytes as part 1 arrives: image/png bytes that are no PNG are 415 and not kept, the session stays open for the right part 1 (no need to send every chunk to learn it at complete)", async () => {
    const good = png(4, 4);
    const { body } = await init(t.editor.token, { name: "fake.png", size: good.length, totalChunks: 1, contentType: "image/png" });
    const bad = await putPart(t.editor.token, body.uploadId, 1, bytes(good.length, 3));
    expect(bad.status, bad.text).toBe(415);
    expect(bad.body).toMatchObject({ key: "media.error.unsupportedMediaType", details: { contentType: "image/png", filename: "fake.png" } });
    const recover = await http().get(`/api/v2/file/upload/${body.uploadId}/recover`, { token: t.editor.token });
    expect(recover.status, recover.text).toBe(200);
    expect(recover.body.missingChunks ?? recover.body.missingParts ?? recover.body.missing).toEqual([1]);

    expect((await putPart(t.editor.token, body.uploadId, 1, good)).status).toBeLessThan(300);
    const done = await http().post(`/api/v2/file/upload/${body.uploadId}/complete`, { token: t.editor.token });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ name: "fake.png", contentType: "image/png", width: 4, height: 4 });
  });

  it("cancel (DELETE) cleans up; later calls find no session (404)", async () => {
    const { body } = await init(t.editor.token, { name: "x.mp4", size: 20, totalChunks: 1, contentType: "video/mp4" });
    await putPart(t.editor.token, body.uploadId, 1, bytes(20));
    const res = await http().delete(`/api/v2/file/upload/${body.uploadId}`, { token: t.editor.token });
    expect(res.status).toBe(204);
    expect((await http().get(`/api/v2/file/upload/${body.uploadId}/recover`, { token: t.editor.token })).status).toBe(404);
    expect((await putPart(t.editor.token, body.uploadId, 1, bytes(20))).status).toBe(404);
    // Its presigned part URL too, without naming the storage's own upload id (the client never saw it).
    const presigned = await fetch(new URL(pathOf(body.uploadUrls["1"]), env.platform.url), { method: "PUT", body: bytes(20) });
    const answer = (await presigned.json()) as { key: string; details: unknown; message: string };
    expect([presigned.status, answer.key, answer.details]).toEqual([404, "upload.error.sessionNotFound", {}]);
    expect(answer.message).toMatch(/presigned URL/);
  });

  it("a VIEWER is refused on writes (init, part, complete, cancel) but may recover", async () => {
    const { body } = await init(t.editor.token, { name: "v.mp4", size: 20, totalChunks: 1, contentType: "video/mp4" });
    expect((await init(t.viewer.token, { name: "v.mp4", size: 20, totalChunks: 1, contentType: "video/mp4" })).status).toBe(403);
    expect((await putPart(t.viewer.token, body.uploadId, 1, bytes(20))).status).toBe(403);
    expect((await http().post(`/api/v2/file/upload/${body.uploadId}/complete`, { token: t.viewer.token })).status).toBe(403);
    expect((await http().delete(`/api/v2/file/upload/${body.uploadId}`, { token: t.viewer.token })).status).toBe(403);
    expect((await http().get(`/api/v2/file/upload/${body.uploadId}/recover`, { token: t.viewer.token })).status).toBe(200);
  });

  it("sessions are private to their tenant", async () => {
    const other = await env.tenant();
    const { body } = await init(t.editor.token, { name: "p.mp4", size: 20, totalChunks: 1, contentType: "video/mp4" });
    expect((await http().get(`/api/v2/file/upload/${body.uploadId}/recover`, { token: other.editor.token })).status).toBe(404);
    expect((await putPart(other.editor.token, body.uploadId, 1, bytes(20))).status).toBe(404);
  });

  it("expired sessions are swept: the parts are freed and the session is gone", async () => {
    const { body } = await init(t.editor.token, { name: "e.mp4", size: 20, totalChunks: 1, contentType: "video/mp4" });
    await putPart(t.editor.token, body.uploadId, 1, bytes(20));
    const knex = env.platform.knexOf("media");
    const row = await knex("upload_session").where({ id: body.uploadId }).first();
    const store = createFilesystemBlobStore({ root: env.blobDir });
    expect(await store.multipart.listParts(row.storage_key, row.store_upload_id)).toHaveLength(1);
    const swept = await sweepExpiredSessions(knex, store, new Date(Date.now() + 25 * 60 * 60 * 1000));
    expect(swept).toBeGreaterThanOrEqual(1);
    expect(await knex("upload_session").where({ id: body.uploadId }).first()).toBeUndefined();
    await expect(store.multipart.listParts(row.storage_key, row.store_upload_id)).rejects.toThrow();
  });
});
