// The private app package spool (plain unit, real files): a disk that fails while the upload is
// still arriving (ENOSPC, EIO) must fail that one upload, never the process (an unhandled
// rejection ends it) and never leave the upload waiting for good. /dev/full fails every write
// with ENOSPC. (No seed sentence covers a failing disk: this guards the process and the caller.)
import { createWriteStream } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { StreamedBodyPartSchema, type StreamedBodyPart } from "@signage/contracts/signage/common/v1/stream_pb";
import { spoolPackageUpload } from "../src/custom-apps/upload-spool.js";

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => void process.off("unhandledRejection", onUnhandled));

const head = () => create(StreamedBodyPartSchema, { kind: { case: "head", value: { field: "file", filename: "app.zip", contentType: "application/zip" } } });
const chunk = (bytes: number) => create(StreamedBodyPartSchema, { kind: { case: "chunk", value: Buffer.alloc(bytes, 1) } });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const toFullDisk = () => createWriteStream("/dev/full");

describe("spoolPackageUpload on a disk that fails", () => {
  it("a write failing while the next part is awaited fails the upload (ENOSPC), with no unhandled rejection", async () => {
    async function* parts(): AsyncGenerator<StreamedBodyPart> {
      yield head();
      yield chunk(1024);
      await pause(100); // the write to /dev/full fails meanwhile
      yield chunk(1024);
    }
    await expect(spoolPackageUpload(parts(), 1 << 20, toFullDisk)).rejects.toMatchObject({ code: "ENOSPC" });
    await pause(20);
    expect(unhandled).toEqual([]);
  });

  it("a stream that failed before the next chunk is not waited on for a drain that never comes", async () => {
    async function* parts(): AsyncGenerator<StreamedBodyPart> {
      yield head();
      yield chunk(1024);
      await pause(100);
      // More than the stream buffers: write() answers false on a stream that will never drain.
      yield chunk(64 * 1024);
      yield chunk(64 * 1024);
    }
    const outcome = await Promise.race([spoolPackageUpload(parts(), 1 << 20, toFullDisk).then(() => "spooled", (e: NodeJS.ErrnoException) => e.code), pause(2_000).then(() => "still waiting")]);
    expect(outcome).toBe("ENOSPC");
    expect(unhandled).toEqual([]);
  });
});
