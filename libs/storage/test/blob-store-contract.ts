// Behaviour every BlobStore adapter must show; run against each adapter.
import { Readable } from "node:stream";
import { expect, it } from "vitest";
import { BlobNotFoundError, BlobTooLargeError, IncompleteBodyError, RangeNotSatisfiableError, type BlobStore } from "../src/index.js";

export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export function pattern(size: number, seed: number): Buffer {
  const buf = Buffer.alloc(size);
  for (let i = 0; i < size; i++) buf[i] = (i * 31 + seed) & 0xff;
  return buf;
}

export function blobStoreContract(store: () => BlobStore): void {
  it("put then get returns the same bytes, stat the size", async () => {
    const data = pattern(300_000, 1);
    const info = await store().put("c/one.bin", Readable.from([data.subarray(0, 1000), data.subarray(1000)]), { contentType: "application/octet-stream" });
    expect(info.size).toBe(data.length);
    expect((await store().stat("c/one.bin"))?.size).toBe(data.length);
    const read = await store().get("c/one.bin");
    expect(read.size).toBe(data.length);
    expect((await readAll(read.body)).equals(data)).toBe(true);
  });

  it("serves byte ranges (bounded, open-ended) and refuses unsatisfiable ones", async () => {
    const data = pattern(10_000, 2);
    await store().put("c/range.bin", data);
    const mid = await store().get("c/range.bin", { start: 100, end: 199 });
    expect(mid.range).toEqual({ start: 100, end: 199 });
    expect((await readAll(mid.body)).equals(data.subarray(100, 200))).toBe(true);
    const tail = await store().get("c/range.bin", { start: 9_990 });
    expect(tail.range).toEqual({ start: 9_990, end: 9_999 });
    expect((await readAll(tail.body)).equals(data.subarray(9_990))).toBe(true);
    await expect(store().get("c/range.bin", { start: 10_000 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
  });

  it("missing blobs: get rejects with BlobNotFoundError, stat is undefined, delete is idempotent", async () => {
    await expect(store().get("c/missing.bin")).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await store().stat("c/missing.bin")).toBeUndefined();
    await store().delete("c/missing.bin");
    await store().put("c/gone.bin", Buffer.from("x"));
    await store().delete("c/gone.bin");
    expect(await store().stat("c/gone.bin")).toBeUndefined();
  });

  it("deletePrefix removes every blob under a folder prefix (plain and multipart-assembled), nothing outside it, and is idempotent", async () => {
    const mp = store().multipart;
    await store().put("p/42/a.bin", Buffer.from("a"));
    await store().put("p/42/deep/er/b.bin", Buffer.from("b"));
    const assembledKey = "p/42/assembled.bin";
    const uploadId = await mp.create(assembledKey);
    await mp.complete(assembledKey, uploadId, [await mp.putPart(assembledKey, uploadId, 1, Readable.from([pattern(100, 1)]))]);
    // Neighbours: a sibling whose name extends the prefix's last segment, and another folder.
    await store().put("p/420/c.bin", Buffer.from("c"));
    await store().put("p/4/d.bin", Buffer.from("d"));
    await store().put("q/42/e.bin", Buffer.from("e"));
    expect((await store().stat(assembledKey))?.size).toBe(100);

    await store().deletePrefix("p/42/");
    for (const key of ["p/42/a.bin", "p/42/deep/er/b.bin", assembledKey]) {
      expect(await store().stat(key), key).toBeUndefined();
      await expect(store().get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    }
    for (const key of ["p/420/c.bin", "p/4/d.bin", "q/42/e.bin"]) expect((await store().stat(key))?.size, key).toBe(1);
    await store().deletePrefix("p/42/");
    await store().deletePrefix("never/used/");
  });

  it("deletePrefix refuses a prefix that is not a folder of valid keys", async () => {
    await expect(store().deletePrefix("p/42")).rejects.toThrow(/invalid blob key prefix/);
    await expect(store().deletePrefix("/")).rejects.toThrow(/invalid blob key/);
    await expect(store().deletePrefix("../")).rejects.toThrow(/invalid blob key/);
  });

  it("put refuses a body above maxSize and leaves nothing behind", async () => {
    await expect(store().put("c/big.bin", Readable.from([pattern(5000, 3)]), { maxSize: 4096 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await store().stat("c/big.bin")).toBeUndefined();
  });

  it("refuses keys that could escape the store", async () => {
    await expect(store().put("../x", Buffer.from("x"))).rejects.toThrow(/invalid blob key/);
    await expect(store().put("a/../../x", Buffer.from("x"))).rejects.toThrow(/invalid blob key/);
  });

  it("multipart: parts in any order, re-upload wins, list, complete assembles in order", async () => {
    const key = "c/assembled.bin";
    const mp = store().multipart;
    const uploadId = await mp.create(key, { contentType: "video/mp4" });
    // S3 needs parts of >= 5 MiB except the last one.
    const p1 = pattern(5 * 1024 * 1024, 4);
    const p2 = pattern(5 * 1024 * 1024, 5);
    const p3 = pattern(1234, 6);
    await mp.putPart(key, uploadId, 3, Readable.from([p3]));
    await mp.putPart(key, uploadId, 1, Readable.from([pattern(10, 9)]));
    await mp.putPart(key, uploadId, 1, Readable.from([p1]));
    let parts = await mp.listParts(key, uploadId);
    expect(parts.map((p) => [p.partNumber, p.size])).toEqual([[1, p1.length], [3, p3.length]]);
    await mp.putPart(key, uploadId, 2, Readable.from([p2]), { size: p2.length });
    parts = await mp.listParts(key, uploadId);
    expect(parts.map((p) => p.partNumber)).toEqual([1, 2, 3]);
    const info = await mp.complete(key, uploadId, parts);
    expect(info.size).toBe(p1.length + p2.length + p3.length);
    const all = await readAll((await store().get(key)).body);
    expect(all.equals(Buffer.concat([p1, p2, p3]))).toBe(true);
    await expect(mp.listParts(key, uploadId)).rejects.toThrow();
  });

  it("multipart: putPart refuses a part above maxSize; abort frees the upload", async () => {
    const key = "c/aborted.bin";
    const mp = store().multipart;
    const uploadId = await mp.create(key);
    await expect(mp.putPart(key, uploadId, 1, Readable.from([pattern(2000, 7)]), { maxSize: 1000 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await mp.listParts(key, uploadId)).toEqual([]);
    await mp.putPart(key, uploadId, 1, Readable.from([pattern(100, 8)]));
    await mp.abort(key, uploadId);
    await mp.abort(key, uploadId);
    await expect(mp.listParts(key, uploadId)).rejects.toThrow();
    expect(await store().stat(key)).toBeUndefined();
  });

  it("multipart: a part that ends short of its declared size is refused and not recorded", async () => {
    const key = "c/short.bin";
    const mp = store().multipart;
    const uploadId = await mp.create(key);
    await expect(mp.putPart(key, uploadId, 1, Readable.from([pattern(100, 1)]), { size: 200 })).rejects.toBeInstanceOf(IncompleteBodyError);
    expect(await mp.listParts(key, uploadId)).toEqual([]);
    await mp.abort(key, uploadId);
  });

  it("presigned part URL accepts a PUT of the part (served by the gateway or the object store)", async () => {
    const key = "c/presigned.bin";
    const mp = store().multipart;
    const uploadId = await mp.create(key);
    const url = await mp.presignPart(key, uploadId, 1, { expiresAt: Date.now() + 60_000, baseUrl: "http://gateway.test" });
    expect(url).toMatch(/^https?:\/\//);
    await mp.abort(key, uploadId);
  });
}
