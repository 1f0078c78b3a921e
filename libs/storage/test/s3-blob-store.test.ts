// The S3 adapter against a local S3-compatible server (s3rver) started here.
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBlobStoreFromUrl, type BlobStore } from "../src/index.js";
import { startS3TestServer, type S3TestServer } from "../src/testing/s3-test-server.js";
import { blobStoreContract, readAll } from "./blob-store-contract.js";

let s3: S3TestServer;
let store: BlobStore;

beforeAll(async () => {
  s3 = await startS3TestServer();
  store = createBlobStoreFromUrl(`s3://${s3.bucket}/some/prefix`, { env: s3.env, s3: { credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } } });
});
afterAll(async () => {
  await s3?.close();
});

describe("S3 blob store", () => {
  blobStoreContract(() => store);

  it("a presigned UploadPart URL takes the part directly (no gateway), and listParts sees it", async () => {
    const key = "c/direct.bin";
    const uploadId = await store.multipart.create(key);
    const url = await store.multipart.presignPart(key, uploadId, 1, { expiresAt: Date.now() + 60_000, baseUrl: "ignored" });
    expect(url.startsWith(s3.endpoint)).toBe(true);
    const data = Buffer.alloc(100_000, 7);
    const res = await fetch(url, { method: "PUT", body: data });
    expect(res.status).toBe(200);
    const parts = await store.multipart.listParts(key, uploadId);
    expect(parts.map((p) => [p.partNumber, p.size])).toEqual([[1, data.length]]);
    await store.multipart.complete(key, uploadId, parts);
    expect((await readAll((await store.get(key)).body)).equals(data)).toBe(true);
  });

  it("put of a stream of unknown length above one part goes up as a multipart upload", async () => {
    const piece = Buffer.alloc(1024 * 1024, 3);
    async function* pieces() {
      for (let i = 0; i < 12; i++) yield piece;
    }
    const info = await store.put("c/big-stream.bin", Readable.from(pieces()));
    expect(info.size).toBe(12 * piece.length);
    expect((await store.stat("c/big-stream.bin"))?.size).toBe(12 * piece.length);
  });

  it("a part without a declared size is spooled, then sent with its length", async () => {
    const key = "c/spooled.bin";
    const uploadId = await store.multipart.create(key);
    const part = await store.multipart.putPart(key, uploadId, 1, Readable.from([Buffer.alloc(3000, 1), Buffer.alloc(3000, 2)]));
    expect(part.size).toBe(6000);
    await store.multipart.abort(key, uploadId);
  });
});
