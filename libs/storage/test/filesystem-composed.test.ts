// The filesystem store completes a multipart upload without copying: the part
// files become the blob (a manifest lists them). These pin what readers and
// writers of such a blob must see.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlobNotFoundError, createFilesystemBlobStore, RangeNotSatisfiableError, type FilesystemBlobStore } from "../src/index.js";
import { readAll } from "./blob-store-contract.js";

let root: string;
let store: FilesystemBlobStore;
const bytes = (size: number, seed: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + seed) & 0xff));
const p1 = bytes(1000, 1);
const p2 = bytes(700, 2);
const p3 = bytes(5, 3);
const whole = Buffer.concat([p1, p2, p3]);

async function composedBlob(key: string): Promise<void> {
  const mp = store.multipart;
  const uploadId = await mp.create(key);
  await mp.putPart(key, uploadId, 2, Readable.from([p2]));
  await mp.putPart(key, uploadId, 3, Readable.from([p3]));
  await mp.putPart(key, uploadId, 1, Readable.from([p1]));
  const seen: Buffer[] = [];
  const info = await mp.complete(key, uploadId, await mp.listParts(key, uploadId), { onData: (c) => seen.push(Buffer.from(c)) });
  expect(info).toMatchObject({ size: whole.length, observed: true });
  // The caller's read pass sees the assembled bytes in order.
  expect(Buffer.concat(seen).equals(whole)).toBe(true);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "blobs-composed-"));
  store = createFilesystemBlobStore({ root });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("filesystem store: completed uploads are composed of their part files (no copy)", () => {
  it("complete writes no assembled copy: the parts are moved, the blob reads back whole, stat gives its size", async () => {
    await composedBlob("c/one.bin");
    await expect(readdir(join(root, "c"))).rejects.toThrow(); // no plain file was written
    expect(await readdir(join(root, ".multipart"))).toEqual([]);
    expect((await readAll((await store.get("c/one.bin")).body)).equals(whole)).toBe(true);
    expect(await store.stat("c/one.bin")).toEqual({ size: whole.length });
  });

  it("byte ranges across part boundaries", async () => {
    await composedBlob("c/ranges.bin");
    for (const [start, end] of [[0, 0], [999, 1000], [500, 1702], [1700, 1704], [1704, 1704], [10, 999]]) {
      const read = await store.get("c/ranges.bin", { start, end });
      expect(read.range).toEqual({ start, end });
      expect((await readAll(read.body)).equals(whole.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
    const open = await store.get("c/ranges.bin", { start: 1600 });
    expect((await readAll(open.body)).equals(whole.subarray(1600))).toBe(true);
    await expect(store.get("c/ranges.bin", { start: whole.length })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
  });

  it("put over a composed blob replaces it and frees its parts; complete over a plain blob replaces that", async () => {
    await composedBlob("c/replaced.bin");
    await store.put("c/replaced.bin", Buffer.from("plain"));
    expect((await readAll((await store.get("c/replaced.bin")).body)).toString()).toBe("plain");
    expect(await readdir(join(root, ".composed", ".parts"))).toHaveLength(2); // one.bin, ranges.bin

    await composedBlob("c/replaced.bin");
    expect((await readAll((await store.get("c/replaced.bin")).body)).equals(whole)).toBe(true);
    expect(await store.stat("c/replaced.bin")).toEqual({ size: whole.length });
  });

  it("delete removes the manifest and the parts", async () => {
    await composedBlob("c/deleted.bin");
    const before = (await readdir(join(root, ".composed", ".parts"))).length;
    await store.delete("c/deleted.bin");
    await store.delete("c/deleted.bin");
    expect(await readdir(join(root, ".composed", ".parts"))).toHaveLength(before - 1);
    await expect(store.get("c/deleted.bin")).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await store.stat("c/deleted.bin")).toBeUndefined();
  });
});
