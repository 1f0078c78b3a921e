// Zero-copy assembly for the filesystem store's multipart uploads. Completing
// an upload does not concatenate its parts into a new file (a second write of
// every byte, plus fsync): the upload's directory is renamed to
// `.composed/.parts/<id>/` and a small manifest at `.composed/<key>.json`
// lists the part files in order. Reads stream the parts back to back; ranges
// map onto them. Keys never start with a dot, so neither path can collide
// with a blob's.
import { createReadStream } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { syncDirectory } from "./sync-directory.js";
import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";

export interface ComposedManifest {
  size: number;
  contentType?: string;
  /** Part files relative to `.composed/.parts/`, in blob order. */
  parts: Array<{ file: string; size: number }>;
}

const READ_CHUNK = 256 * 1024;

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException)?.code === "ENOENT";
}

export class ComposedBlobs {
  private readonly dir: string;
  private readonly partsRoot: string;

  constructor(root: string, private readonly fsync: boolean, private readonly tmpDir: string) {
    this.dir = join(root, ".composed");
    this.partsRoot = join(this.dir, ".parts");
  }

  /** `key` must already be validated. */
  private manifestPath(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  async read(key: string): Promise<ComposedManifest | undefined> {
    try {
      return JSON.parse(await readFile(this.manifestPath(key), "utf8")) as ComposedManifest;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  /**
   * Adopts `uploadDir` (its part files `<n>.part`) as the blob `key`: one
   * rename and one small manifest write, whatever the size. Returns the
   * manifest it replaced, if any (its parts are the caller's to drop).
   */
  async adopt(key: string, uploadDir: string, parts: Array<{ partNumber: number; size: number }>, contentType?: string): Promise<ComposedManifest | undefined> {
    const previous = await this.read(key);
    const id = randomUUID();
    await mkdir(this.partsRoot, { recursive: true });
    await rename(uploadDir, join(this.partsRoot, id));
    const manifest: ComposedManifest = {
      size: parts.reduce((n, p) => n + p.size, 0),
      contentType,
      parts: parts.map((p) => ({ file: `${id}/${p.partNumber}.part`, size: p.size })),
    };
    const tmp = join(this.tmpDir, `${randomUUID()}.json`);
    await mkdir(this.tmpDir, { recursive: true });
    await writeFile(tmp, JSON.stringify(manifest));
    if (this.fsync) {
      const handle = await open(tmp, "r+");
      await handle.datasync().finally(() => handle.close());
    }
    await mkdir(dirname(this.manifestPath(key)), { recursive: true });
    await rename(tmp, this.manifestPath(key));
    if (this.fsync) {
      // Both renames (the parts' folder, the manifest) are durable once their directories are.
      await syncDirectory(this.partsRoot);
      await syncDirectory(dirname(this.manifestPath(key)));
    }
    return previous;
  }

  /** Removes the manifest and the parts of `key`; idempotent. */
  async remove(key: string): Promise<void> {
    const manifest = await this.read(key);
    if (!manifest) return;
    await rm(this.manifestPath(key), { force: true });
    await this.dropParts(manifest);
  }

  /** Removes every composed blob whose key starts with `prefix` (a validated folder prefix ending with "/"). */
  async removePrefix(prefix: string): Promise<void> {
    const dir = join(this.dir, prefix);
    let entries: string[];
    try {
      entries = (await readdir(dir, { recursive: true })) as string[];
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for (const entry of entries) {
      if (!entry.endsWith(".json")) continue;
      await this.remove(prefix + entry.slice(0, -".json".length).split(/[\\/]/).join("/"));
    }
    await rm(dir, { recursive: true, force: true });
  }

  /** Deletes the part directories a manifest points at. */
  async dropParts(manifest: ComposedManifest): Promise<void> {
    const dirs = new Set(manifest.parts.map((p) => p.file.split("/")[0]));
    for (const d of dirs) if (d) await rm(join(this.partsRoot, d), { recursive: true, force: true });
  }

  /** The bytes `start..end` (inclusive) of a composed blob, part after part. */
  async *stream(manifest: ComposedManifest, start: number, end: number): AsyncGenerator<Buffer> {
    let offset = 0;
    for (const part of manifest.parts) {
      const partStart = offset;
      const partEnd = offset + part.size - 1;
      offset += part.size;
      if (part.size === 0 || partEnd < start) continue;
      if (partStart > end) break;
      const from = Math.max(start, partStart) - partStart;
      const to = Math.min(end, partEnd) - partStart;
      for await (const chunk of createReadStream(join(this.partsRoot, part.file), { start: from, end: to, highWaterMark: READ_CHUNK })) yield chunk as Buffer;
    }
  }
}
