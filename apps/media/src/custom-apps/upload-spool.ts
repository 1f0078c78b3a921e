// The upload stream (stream.proto convention) spooled to a private temp file:
// a ZIP is read from its end (central directory), so it must be complete and
// seekable before it is checked. Memory stays flat; the size cap is enforced
// while writing.
import { createHash } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import type { StreamedBodyPart } from "@signage/contracts/signage/common/v1/stream_pb";
import { fileMissing, notZipMediaType, uploadTooLarge } from "./custom-app-errors.js";

export const ZIP_CONTENT_TYPES = new Set(["application/zip", "application/x-zip-compressed"]);

export interface SpooledUpload {
  path: string;
  size: number;
  sha256: string;
  filename: string;
  /** Removes the temp file and its folder. */
  dispose(): Promise<void>;
}

/** The multipart part `file` (or a raw body), in order: head, then chunks. */
function isPackagePart(head: { field: string; value?: string }): boolean {
  return head.value === undefined && (head.field === "file" || head.field === "");
}

/** Opens the spool file (tests: a file whose writes fail). */
export type OpenSpool = (path: string) => WriteStream;

const openPrivate: OpenSpool = (path) => createWriteStream(path, { flags: "wx", mode: 0o600 });

export async function spoolPackageUpload(parts: AsyncIterable<StreamedBodyPart | undefined>, maxBytes: number, open: OpenSpool = openPrivate): Promise<SpooledUpload> {
  const dir = await mkdtemp(join(tmpdir(), "custom-app-upload-"));
  const path = join(dir, "package.zip");
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    let state: "before" | "inside" | "after" = "before";
    let filename = "";
    let size = 0;
    const hash = createHash("sha256");
    const out = open(path);
    const closed = once(out, "close");
    // A failed write (ENOSPC, EIO) may surface while the next part is awaited: this promise then
    // rejects with nobody listening yet (an unhandled rejection ends the process). It is awaited,
    // and its error rethrown, below.
    closed.catch(() => undefined);
    try {
      for await (const part of parts) {
        const kind = part?.kind;
        if (kind?.case === "head") {
          if (state === "inside") state = "after";
          if (state === "before" && isPackagePart(kind.value)) {
            const contentType = kind.value.contentType.split(";")[0].trim().toLowerCase();
            if (!ZIP_CONTENT_TYPES.has(contentType)) throw notZipMediaType(kind.value.contentType);
            if (kind.value.size !== undefined && Number(kind.value.size) > maxBytes) throw uploadTooLarge(maxBytes);
            filename = kind.value.filename;
            state = "inside";
          }
        } else if (kind?.case === "chunk" && state === "inside") {
          size += kind.value.length;
          if (size > maxBytes) throw uploadTooLarge(maxBytes);
          hash.update(kind.value);
          // A stream that already failed emits no more events: waiting for its drain would never end.
          if (out.errored) throw out.errored;
          if (!out.write(kind.value)) await once(out, "drain");
        }
      }
    } finally {
      out.end();
      await closed;
    }
    if (state === "before") throw fileMissing();
    return { path, size, sha256: hash.digest("hex"), filename, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}
