import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilesystemBlobStore, PartChangedError, UploadNotFoundError, UrlSigner, type FilesystemBlobStore } from "../src/index.js";
import { Readable } from "node:stream";
import { blobStoreContract, pattern } from "./blob-store-contract.js";

let root: string;
let store: FilesystemBlobStore;
const signer = new UrlSigner("test-secret-0123456789abcdef");

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "blobs-"));
  store = createFilesystemBlobStore({ root, signer });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("filesystem blob store", () => {
  blobStoreContract(() => store);

  it("multipart: a part still streaming when its upload is aborted is refused and leaves no folder behind", async () => {
    // Abort "frees every part": a part that was mid-write re-created the upload's folder, which nothing swept.
    const key = "c/aborted-mid-part.bin";
    const mp = store.multipart;
    const uploadId = await mp.create(key);
    const body = new Readable({ read() {} });
    const writing = mp.putPart(key, uploadId, 1, body);
    body.push(pattern(50, 3));
    await new Promise((r) => setTimeout(r, 20));
    await mp.abort(key, uploadId);
    body.push(pattern(50, 4));
    body.push(null);
    await expect(writing).rejects.toBeInstanceOf(UploadNotFoundError);
    expect((await readdir(join(root, ".multipart")).catch(() => [])).filter((name) => name.includes(uploadId))).toEqual([]);
  });

  it("multipart: complete with a part re-uploaded since it was listed is PartChangedError and keeps the upload; complete with the current parts then succeeds", async () => {
    // A resent chunk can land while complete runs: that is a retryable conflict, not a failure of the store.
    // (S3 answers InvalidPart, mapped to the same error; the s3rver emulator does not check ETags.)
    const key = "c/changed.bin";
    const mp = store.multipart;
    const uploadId = await mp.create(key);
    await mp.putPart(key, uploadId, 1, Readable.from([pattern(100, 1)]));
    const listed = await mp.listParts(key, uploadId);
    await mp.putPart(key, uploadId, 1, Readable.from([pattern(120, 2)]));
    await expect(mp.complete(key, uploadId, listed)).rejects.toBeInstanceOf(PartChangedError);
    expect(await store.stat(key)).toBeUndefined();
    const info = await mp.complete(key, uploadId, await mp.listParts(key, uploadId));
    expect(info.size).toBe(120);
  });

  it("leaves no temp files behind after writes and failed writes", async () => {
    expect(await readdir(join(root, ".tmp"))).toEqual([]);
  });

  it("presigned part URLs are HMAC-signed gateway URLs with expiry; tampering or expiry is refused", async () => {
    const uploadId = await store.multipart.create("c/signed.bin");
    const expiresAt = Date.now() + 60_000;
    const url = new URL(await store.multipart.presignPart("c/signed.bin", uploadId, 2, { expiresAt, baseUrl: "http://gw.test:8080", maxSize: 1000 }));
    expect(url.origin).toBe("http://gw.test:8080");
    expect(url.pathname).toBe(`/storage/v1/parts/${uploadId}/2`);
    const q = { uploadId, partNumber: 2, expires: url.searchParams.get("expires")!, maxSize: url.searchParams.get("maxSize")!, signature: url.searchParams.get("signature")! };
    expect(store.presigned.verifyPart(q)).toBe("ok");
    expect(store.presigned.verifyPart({ ...q, partNumber: 3 })).toBe("invalid");
    expect(store.presigned.verifyPart({ ...q, maxSize: "999999" })).toBe("invalid");
    expect(store.presigned.verifyPart({ ...q, expires: String(expiresAt + 1) })).toBe("invalid");
    expect(store.presigned.verifyPart(q, expiresAt + 1)).toBe("expired");
  });

  it("presigned blob URLs carry the key, the file name and type under the signature", async () => {
    const url = new URL(await store.presignGet("c/x/y.png", { expiresAt: Date.now() + 1000, baseUrl: "http://gw", filename: "a b.png", contentType: "image/png" }));
    const blob = url.pathname.split("/").pop()!;
    const q = { blob, expires: url.searchParams.get("expires")!, filename: url.searchParams.get("filename")!, contentType: url.searchParams.get("contentType")!, signature: url.searchParams.get("signature")! };
    expect(store.presigned.verifyBlob(q)).toEqual({ check: "ok", key: "c/x/y.png" });
    expect(store.presigned.verifyBlob({ ...q, filename: "other.png" }).check).toBe("invalid");
  });
});
