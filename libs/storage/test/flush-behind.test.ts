// flush-behind.ts: a file streamed in at network speed is synced as it grows, one
// background fdatasync at a time, and the writer can wait for the one in flight.
import { createWriteStream } from "node:fs";
import { mkdtemp, open, readFile, rm, type FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushBehind, flushSlots } from "../src/filesystem/flush-behind.js";

const KiB = 1024;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "flush-behind-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `total` bytes in 64 KiB chunks, pausing now and then as a network body does. */
async function* arriving(total: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < total; at += 64 * KiB) {
    yield Buffer.alloc(64 * KiB, at / (64 * KiB));
    if (at % (256 * KiB) === 0) await new Promise((r) => setTimeout(r, 1));
  }
}

/** The real handle, its datasync calls counted (and how many ran at once). */
function counted(handle: FileHandle) {
  const stats = { calls: 0, running: 0, mostAtOnce: 0 };
  const datasync = handle.datasync.bind(handle);
  handle.datasync = async () => {
    stats.calls++;
    stats.mostAtOnce = Math.max(stats.mostAtOnce, ++stats.running);
    try {
      return await datasync();
    } finally {
      stats.running--;
    }
  };
  return stats;
}

describe("flushBehind", () => {
  it("syncs the file in the background as it is written, one flush at a time, and the bytes arrive whole", async () => {
    const path = join(dir, "growing.bin");
    const handle = await open(path, "w");
    const stats = counted(handle);
    const out = createWriteStream(path, { highWaterMark: 1024 * KiB });
    const behind = flushBehind(handle, out, { everyBytes: 512 * KiB });
    await pipeline(Readable.from(arriving(4096 * KiB)), behind.trigger, out);
    await behind.drain();
    await handle.close();
    // 4 MiB with a flush due every 512 KiB: several ran while the file grew, never two at once.
    expect(stats.calls).toBeGreaterThanOrEqual(3);
    expect(stats.mostAtOnce).toBe(1);
    const bytes = await readFile(path);
    expect(bytes.length).toBe(4096 * KiB);
    expect(bytes[64 * KiB * 10]).toBe(10);
  });

  it("flushes nothing for a file smaller than one interval (the writer's final sync covers it)", async () => {
    const path = join(dir, "small.bin");
    const handle = await open(path, "w");
    const stats = counted(handle);
    const out = createWriteStream(path);
    const behind = flushBehind(handle, out, { everyBytes: 8 * 1024 * KiB });
    await pipeline(Readable.from(arriving(1024 * KiB)), behind.trigger, out);
    await behind.drain();
    await handle.close();
    expect(stats.calls).toBe(0);
  });

  it("drain() waits for the flush in flight, so the handle is never closed under it", async () => {
    const path = join(dir, "held.bin");
    const handle = await open(path, "w");
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let flushes = 0;
    handle.datasync = async () => {
      flushes++;
      await held;
    };
    const out = createWriteStream(path);
    const behind = flushBehind(handle, out, { everyBytes: 128 * KiB });
    await pipeline(Readable.from(arriving(1024 * KiB)), behind.trigger, out);
    expect(flushes).toBe(1); // the first is still running: no second one started beside it
    let drained = false;
    const draining = behind.drain().then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(drained).toBe(false);
    release();
    await draining;
    expect(drained).toBe(true);
    await handle.close();
  });

  it("a failed background flush fails the write: drain() rejects with it and no later flush starts", async () => {
    // Linux reports a failed write-back once per open file: the final sync on the same handle would pass.
    const path = join(dir, "failing.bin");
    const handle = await open(path, "w");
    let flushes = 0;
    const eio = Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" });
    handle.datasync = () => {
      flushes++;
      return Promise.reject(eio);
    };
    const out = createWriteStream(path);
    const behind = flushBehind(handle, out, { everyBytes: 128 * KiB });
    await pipeline(Readable.from(arriving(1024 * KiB)), behind.trigger, out);
    await expect(behind.drain()).rejects.toBe(eio);
    expect(flushes).toBe(1);
    await handle.close();
  });

  it("takes a slot for each background flush and skips flushes while none is free (libuv's threads are shared)", async () => {
    const slots = flushSlots(1);
    expect(slots.take()).toBe(true); // another file's flush holds the only slot
    const first = join(dir, "no-slot.bin");
    let handle = await open(first, "w");
    let stats = counted(handle);
    let out = createWriteStream(first);
    let behind = flushBehind(handle, out, { everyBytes: 256 * KiB, slots });
    await pipeline(Readable.from(arriving(2048 * KiB)), behind.trigger, out);
    await behind.drain();
    await handle.close();
    expect(stats.calls).toBe(0);

    slots.give();
    const second = join(dir, "with-slot.bin");
    handle = await open(second, "w");
    stats = counted(handle);
    out = createWriteStream(second);
    behind = flushBehind(handle, out, { everyBytes: 256 * KiB, slots });
    await pipeline(Readable.from(arriving(2048 * KiB)), behind.trigger, out);
    await behind.drain();
    await handle.close();
    expect(stats.calls).toBeGreaterThanOrEqual(2);
    // Every slot taken was given back: the one slot is free again.
    expect(slots.take()).toBe(true);
    expect(slots.take()).toBe(false);
  });
});
