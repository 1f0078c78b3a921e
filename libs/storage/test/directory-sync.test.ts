// A blob's name is durable only once its directory is synced (fsync on the file covers its
// bytes): the store syncs the directory of every rename it makes, when it syncs at all.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const synced: string[] = [];
vi.mock("../src/filesystem/sync-directory.js", async (original) => {
  const real = await original<typeof import("../src/filesystem/sync-directory.js")>();
  // The real sync runs; the test only notes which directories were synced.
  return { syncDirectory: async (path: string) => (synced.push(path), real.syncDirectory(path)) };
});
const { createFilesystemBlobStore } = await import("../src/index.js");

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "dir-sync-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));
beforeEach(() => {
  synced.length = 0;
});

describe("directory sync after renames", () => {
  it("a put syncs the directory its file was renamed into", async () => {
    const store = createFilesystemBlobStore({ root });
    await store.put("files/7/a.bin", Readable.from([Buffer.from("hello")]));
    expect(synced).toEqual([join(root, "files/7")]);
    expect(await readFile(join(root, "files/7/a.bin"), "utf8")).toBe("hello");
  });

  it("completing a multipart upload syncs the parts' new folder and the manifest's directory", async () => {
    const store = createFilesystemBlobStore({ root });
    const key = "files/7/big.bin";
    const uploadId = await store.multipart.create(key);
    await store.multipart.putPart(key, uploadId, 1, Readable.from([Buffer.from("part one")]));
    synced.length = 0;
    await store.multipart.complete(key, uploadId, await store.multipart.listParts(key, uploadId));
    // The parts' folder moved under .composed/.parts, the manifest renamed to .composed/<key>.json.
    expect(synced).toEqual([join(root, ".composed/.parts"), dirname(join(root, ".composed", `${key}.json`))]);
  });

  it("a store that does not sync (fsync: false) syncs no directory either", async () => {
    const store = createFilesystemBlobStore({ root, fsync: false });
    await store.put("files/8/b.bin", Readable.from([Buffer.from("x")]));
    expect(synced).toEqual([]);
  });
});
