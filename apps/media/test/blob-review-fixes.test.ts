// Chunked upload fixes from a review of the blob side, over HTTP through the gateway with the
// filesystem store (its minimum part size is 1 byte, so files may come in chunks of any size).
// Document 1 "Chunked upload": "Upload chunk | PUT /api/v2/file/upload/{uploadId}/part/{partNumber}
// | body application/octet-stream (chunk bytes)"; "Upload chunk directly | PUT to the presigned URL
// for that part number from init | chunk bytes"; states: "open | chunk PUT (direct to URL or via
// the part endpoint) | part number within totalChunks | open | part recorded".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, pathOf, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;

beforeAll(async () => {
  env = await startUploadPlatform("media_blob_review_fixes", { UPLOAD_MAX_CHUNK_SIZE: String(64 * 1024) });
  t = await env.tenant();
}, 60_000);
afterAll(() => env?.close());

const http = () => env.platform.http;

async function init(body: Record<string, unknown>): Promise<{ uploadId: string; uploadUrls: Record<string, string> }> {
  const res = await http().post("/api/v2/file/upload/init", { token: t.editor.token, body: { parentId: t.rootId, ...body } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const complete = (uploadId: string) => http().post(`/api/v2/file/upload/${uploadId}/complete`, { token: t.editor.token });

describe("chunked upload: what a chunk is", { timeout: 60_000 }, () => {
  it("'chunk PUT (direct to URL or via the part endpoint) ... part recorded': a form whose chunk file part follows a plain field records the file part (API path and presigned URL), not an empty chunk", async () => {
    const data = Buffer.from("0123456789".repeat(10));
    const { uploadId, uploadUrls } = await init({ name: "form.mp4", size: data.length * 2, totalChunks: 2, contentType: "video/mp4" });
    const form = () => multipart([{ name: "partNumber", data: "1" }, { name: "file", filename: "blob", type: "application/octet-stream", data }]);
    const viaApi = await http().put(`/api/v2/file/upload/${uploadId}/part/1`, { token: t.editor.token, body: form() });
    expect(viaApi.status, viaApi.text).toBe(200);
    expect(viaApi.body).toMatchObject({ partNumber: 1, uploadedSize: data.length, success: true });
    const direct = await fetch(new URL(pathOf(uploadUrls["2"]), env.platform.url), { method: "PUT", body: form() });
    expect(direct.status, await direct.clone().text()).toBe(200);
    expect(await direct.json()).toMatchObject({ partNumber: 2, uploadedSize: data.length });
    const done = await complete(uploadId);
    expect(done.status, done.text).toBe(200);
    const bytes = Buffer.from(await (await fetch(new URL(pathOf(done.body.location), env.platform.url))).arrayBuffer());
    expect(bytes.equals(Buffer.concat([data, data]))).toBe(true);
  });

  it("'totalChunks (req, int, 1..10000)', 'Chunk size | at most the maxChunkSize': a PNG sent in 5-byte chunks is accepted chunk by chunk (part 1 is too short to show its signature) and completes as image/png", async () => {
    const image = png(4, 4);
    const step = 5;
    const totalChunks = Math.ceil(image.length / step);
    const { uploadId } = await init({ name: "tiny.png", size: image.length, totalChunks, contentType: "image/png" });
    for (let n = 1; n <= totalChunks; n++) {
      const res = await http().put(`/api/v2/file/upload/${uploadId}/part/${n}`, {
        token: t.editor.token,
        body: image.subarray((n - 1) * step, n * step),
        headers: { "content-type": "application/octet-stream" },
      });
      expect(res.status, `part ${n}: ${res.text}`).toBe(200);
    }
    const done = await complete(uploadId);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ name: "tiny.png", contentType: "image/png", size: image.length, width: 4, height: 4 });
  });

  it("the bytes are still checked: a short part 1 that is no PNG is refused at complete (415), as a single-chunk upload is at once", async () => {
    const notPng = Buffer.from("GIF89a-not-a-png-at-all");
    const split = await init({ name: "fake.png", size: notPng.length, totalChunks: 5, contentType: "image/png" });
    for (let n = 1; n <= 5; n++) {
      const res = await http().put(`/api/v2/file/upload/${split.uploadId}/part/${n}`, { token: t.editor.token, body: notPng.subarray((n - 1) * 5, n * 5), headers: { "content-type": "application/octet-stream" } });
      expect(res.status, res.text).toBe(200);
    }
    const refused = await complete(split.uploadId);
    expect(refused.status, refused.text).toBe(415);
    expect(refused.body.key).toBe("media.error.unsupportedMediaType");

    const single = await init({ name: "short.png", size: 5, totalChunks: 1, contentType: "image/png" });
    const res = await http().put(`/api/v2/file/upload/${single.uploadId}/part/1`, { token: t.editor.token, body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d]), headers: { "content-type": "application/octet-stream" } });
    expect(res.status, res.text).toBe(415);
  });
});

// "Init response | uploadId (string), uploadUrls (map: part number as string key, starting at 1,
// to presigned object-storage URL)": on S3 those URLs are SigV4-presigned, which live at most a
// week, and a session's part URLs live as long as the session (UPLOAD_SESSION_TTL_MS). A longer
// session made every init fail (500) after it had opened the store's multipart upload.
describe("S3 part URLs and the session lifetime", () => {
  const WEEK = 7 * 24 * 60 * 60 * 1000;

  it("a session longer than a week is refused at start-up with an s3:// store, not at every init; a week is fine, and the filesystem store has no such limit", async () => {
    const { storageConfigFromEnv } = await import("../src/storage/storage-config.js");
    const s3 = { STORAGE_URL: "s3://bucket/prefix", STORAGE_SIGNING_SECRET: "test-signing-secret-0123456789" };
    expect(() => storageConfigFromEnv({ ...s3, UPLOAD_SESSION_TTL_MS: String(WEEK + 1) })).toThrow(/UPLOAD_SESSION_TTL_MS.*7 days/);
    expect(storageConfigFromEnv({ ...s3, UPLOAD_SESSION_TTL_MS: String(WEEK) }).uploadTtlMs).toBe(WEEK);
    expect(storageConfigFromEnv({ STORAGE_URL: "/tmp/blobs", UPLOAD_SESSION_TTL_MS: String(2 * WEEK) }).uploadTtlMs).toBe(2 * WEEK);
  });

  it("the S3 adapter presigns a part URL for the longest session allowed (one week)", async () => {
    const { createBlobStoreFromUrl } = await import("@signage/storage");
    const store = createBlobStoreFromUrl("s3://bucket", { env: { AWS_ENDPOINT_URL_S3: "http://127.0.0.1:9", AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "b" } });
    const url = await store.multipart.presignPart("files/1/a.mp4", "upload-1", 1, { expiresAt: Date.now() + WEEK, baseUrl: "" });
    expect(Number(new URL(url).searchParams.get("X-Amz-Expires"))).toBeGreaterThan(WEEK / 1000 - 5);
  });
});
