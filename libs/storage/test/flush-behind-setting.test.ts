// STORAGE_FLUSH_BEHIND_MB: how often the filesystem store syncs a file in the background as it
// grows (flush-behind.ts), 0 for only once written; checked when the store is made.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const intervals: number[] = [];
vi.mock("../src/filesystem/flush-behind.js", async (original) => {
  const real = await original<typeof import("../src/filesystem/flush-behind.js")>();
  // The real write-behind runs; the test notes the interval each write was given.
  return { ...real, flushBehind: (...args: Parameters<typeof real.flushBehind>) => (intervals.push(args[2]?.everyBytes ?? -1), real.flushBehind(...args)) };
});
const { createBlobStoreFromUrl } = await import("../src/index.js");

const MiB = 1024 * 1024;
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "flush-setting-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));
beforeEach(() => {
  intervals.length = 0;
});

const putOne = (env: Record<string, string>) => createBlobStoreFromUrl(root, { env }).put("files/1/a.bin", Readable.from([Buffer.from("bytes")]));

describe("STORAGE_FLUSH_BEHIND_MB", () => {
  it("defaults to every 8 MiB", async () => {
    await putOne({});
    expect(intervals).toEqual([8 * MiB]);
  });

  it("sets the interval in MiB, and 0 syncs a file only once it is written", async () => {
    await putOne({ STORAGE_FLUSH_BEHIND_MB: "32" });
    expect(intervals).toEqual([32 * MiB]);
    intervals.length = 0;
    await putOne({ STORAGE_FLUSH_BEHIND_MB: "0" });
    expect(intervals).toEqual([]);
  });

  it.each(["-1", "1.5", "2048", "lots"])("refuses %s, naming the variable", (value) => {
    expect(() => createBlobStoreFromUrl(root, { env: { STORAGE_FLUSH_BEHIND_MB: value } })).toThrow(/STORAGE_FLUSH_BEHIND_MB must be a whole number of MiB from 0 to 1024/);
  });
});
