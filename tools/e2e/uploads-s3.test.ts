// Uploads through the gateway over HTTP with the S3 adapter
// (STORAGE_URL=s3://...), against a local S3-compatible server started here,
// PostgreSQL and NATS JetStream: presigned part URLs go straight to the
// object store; downloads stream from it with Range.
import { crc32 } from "@node-rs/crc32";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createBlobStoreFromUrl, UploadNotFoundError } from "@signage/storage";
import { startS3TestServer, type S3TestServer } from "@signage/storage/testing";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";

let s3: S3TestServer;
let platform: TestPlatform;
let editor: string;
let viewer: string;

beforeAll(async () => {
  s3 = await startS3TestServer("media-e2e");
  platform = await startPlatform({
    modules: [coreModule, mediaModule],
    bus: "jetstream",
    prefix: "uploads_s3",
    env: { ...s3.env, STORAGE_URL: `s3://${s3.bucket}/tenant-blobs`, STORAGE_SIGNING_SECRET: "s3-e2e-signing-secret-0123456789", UPLOAD_SWEEP_INTERVAL_MS: "3600000" },
  });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const customer = await createCustomer(platform.http, admin);
  editor = (await createUser(platform.http, admin, customer.id, "EDITOR")).token;
  viewer = (await createUser(platform.http, admin, customer.id, "VIEWER")).token;
  for (let i = 0; i < 100; i++) {
    const res = await platform.http.get("/api/v2/fileFolder", { token: viewer, query: { search: "parentId=NULL" } });
    if (res.body.content?.length) break;
    await new Promise((r) => setTimeout(r, 50));
  }
}, 90_000);
afterAll(async () => {
  await platform?.close();
  await s3?.close();
}, 30_000);

const crcHex = (b: Buffer) => (crc32(b) >>> 0).toString(16).padStart(8, "0");
function data(size: number, seed: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4096) b.fill((i / 4096 + seed) & 0xff, i, Math.min(size, i + 4096));
  return b;
}

describe("uploads with the S3 adapter, through the gateway", { timeout: 60_000 }, () => {
  it("simple upload stores in S3; location streams back with Range", async () => {
    const bytes = data(300_000, 1);
    const form = new FormData();
    form.append("files[]", new Blob([new Uint8Array(bytes)], { type: "video/mp4" }), "clip.mp4");
    const res = await platform.http.post("/api/file", { token: editor, body: form });
    expect(res.status, res.text).toBe(200);
    expect(res.body[0]).toMatchObject({ size: bytes.length, crcCheckSum: crcHex(bytes), contentType: "video/mp4" });
    const url = new URL(res.body[0].location, platform.url);
    const full = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(full.equals(bytes)).toBe(true);
    const part = await fetch(url, { headers: { range: "bytes=100000-100099" } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100_000, 100_100))).toBe(true);
  });

  it("chunked: presigned URLs point at the object store (S3 UploadPart); mixed with the API path; interrupted upload resumed via recover; complete verifies CRC", async () => {
    const partSize = 5 * 1024 * 1024;
    const parts = [data(partSize, 2), data(partSize, 3), data(1234, 4)];
    const all = Buffer.concat(parts);
    const init = await platform.http.post("/api/v2/file/upload/init", { token: editor, body: { name: "movie.mp4", size: all.length, totalChunks: 3, contentType: "video/mp4", crcChecksum: crcHex(all) } });
    expect(init.status, init.text).toBe(200);
    const { uploadId, uploadUrls } = init.body;
    expect(uploadUrls["1"].startsWith(s3.endpoint)).toBe(true);
    // Part 1 straight to S3, no token.
    expect((await fetch(uploadUrls["1"], { method: "PUT", body: parts[0] })).status).toBe(200);
    // Part 2 through the API path, interrupted half way.
    const controller = new AbortController();
    const body = new ReadableStream({
      start(c) {
        c.enqueue(parts[1].subarray(0, partSize / 2));
        setTimeout(() => controller.abort(), 200);
      },
    });
    await fetch(new URL(`/api/v2/file/upload/${uploadId}/part/2`, platform.url), { method: "PUT", body, signal: controller.signal, headers: { authorization: `Bearer ${editor}`, "content-type": "application/octet-stream", "content-length": String(partSize) }, duplex: "half" } as RequestInit).catch(() => undefined);
    const recovered = await platform.http.get(`/api/v2/file/upload/${uploadId}/recover`, { token: viewer });
    expect(recovered.body).toMatchObject({ uploadedChunks: [1], missingChunks: [2, 3] });
    for (const n of [2, 3]) {
      const res = await platform.http.put(`/api/v2/file/upload/${uploadId}/part/${n}`, { token: editor, body: parts[n - 1], headers: { "content-type": "application/octet-stream" } });
      expect(res.status, res.text).toBe(200);
    }
    const done = await platform.http.post(`/api/v2/file/upload/${uploadId}/complete`, { token: editor });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ size: all.length, crcCheckSum: crcHex(all) });
    const tail = await fetch(new URL(done.body.location, platform.url), { headers: { range: `bytes=${all.length - 100}-` } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(all.subarray(all.length - 100))).toBe(true);
  });

  it("init refuses chunks below S3's 5 MiB part minimum (except a single chunk)", async () => {
    const res = await platform.http.post("/api/v2/file/upload/init", { token: editor, body: { name: "s.mp4", size: 1_000_000, totalChunks: 4, contentType: "video/mp4" } });
    expect(res.status).toBe(400);
    expect(res.body.key).toBe("upload.error.chunkTooSmall");
  });

  it("cancel aborts the S3 multipart upload; a VIEWER cannot cancel", async () => {
    const init = await platform.http.post("/api/v2/file/upload/init", { token: editor, body: { name: "c.mp4", size: 10, totalChunks: 1, contentType: "video/mp4" } });
    expect(init.status, init.text).toBe(200);
    const row = await platform.knexOf("media")("upload_session").where({ id: init.body.uploadId }).first();
    const store = createBlobStoreFromUrl(`s3://${s3.bucket}/tenant-blobs`, { env: s3.env });
    expect(await store.multipart.listParts(row.storage_key, row.store_upload_id)).toEqual([]);
    expect((await platform.http.delete(`/api/v2/file/upload/${init.body.uploadId}`, { token: viewer })).status).toBe(403);
    expect((await platform.http.delete(`/api/v2/file/upload/${init.body.uploadId}`, { token: editor })).status).toBe(204);
    await expect(store.multipart.listParts(row.storage_key, row.store_upload_id)).rejects.toBeInstanceOf(UploadNotFoundError);
  });
});
