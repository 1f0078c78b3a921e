import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFilesystemBlobStore, UrlSigner, type FilesystemBlobStore } from "../src/index.js";
import { blobStoreContract } from "./blob-store-contract.js";

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
