// Filesystem adapter: blobs are files under `root/<key>`. Writes go to a temp
// file first and are renamed into place, so a reader never sees a partial
// blob. Multipart uploads keep their parts under `root/.multipart/<id>/`;
// completing one adopts the part files as the blob (composed-blobs.ts).
// Presigned URLs point at our own gateway and carry an HMAC signature.
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  assertValidKey,
  assertValidPrefix,
  BlobNotFoundError,
  resolveRange,
  PartChangedError,
  UploadNotFoundError,
  type BlobInfo,
  type BlobRead,
  type BlobStore,
  type ByteRange,
  type MultipartStore,
  type PresignOptions,
  type UploadedPart,
} from "../blob-store.js";
import { ByteCounter } from "../byte-limit.js";
import { ComposedBlobs } from "./composed-blobs.js";
import { FLUSH_BEHIND_BYTES, flushBehind, flushSlots, type FlushBehind } from "./flush-behind.js";
import { syncDirectory } from "./sync-directory.js";
import type { SignatureCheck, UrlSigner } from "../url-signer.js";
import { presignedBlobUrl, presignedPartUrl, verifyPresignedBlob, verifyPresignedPart, type PresignedBlobQuery, type PresignedPartQuery } from "../presigned-urls.js";

export interface FilesystemBlobStoreOptions {
  root: string;
  /** Signs presigned URLs; without it presign* throws (embedded tools that never presign). */
  signer?: UrlSigner;
  /** fsync files before renaming them into place (default true). */
  fsync?: boolean;
  /** With fsync: also sync a file in the background every this many bytes as it is written (flush-behind.ts; default 8 MiB, 0: only at the end). */
  flushBehindBytes?: number;
}

/** Checks the signed URLs this store hands out (served by the gateway, verified by the owning service). */
export interface PresignVerifier {
  verifyPart(query: PresignedPartQuery, now?: number): SignatureCheck;
  verifyBlob(query: PresignedBlobQuery, now?: number): { check: SignatureCheck; key: string };
}

export type FilesystemBlobStore = BlobStore & { readonly root: string; readonly presigned: PresignVerifier };

const UPLOAD_ID = /^[A-Za-z0-9-]{1,64}$/;
/** Background flushes running at once for all of a store's writes (flush-behind.ts FlushSlots). */
const BACKGROUND_FLUSHES = 2;
const READ_CHUNK = 256 * 1024;

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException)?.code === "ENOENT";
}

export function createFilesystemBlobStore(options: FilesystemBlobStoreOptions): FilesystemBlobStore {
  const root = options.root;
  const fsync = options.fsync ?? true;
  const tmpDir = join(root, ".tmp");
  const multipartDir = join(root, ".multipart");
  const composed = new ComposedBlobs(root, fsync, tmpDir);
  const flushes = flushSlots(BACKGROUND_FLUSHES);
  const flushBehindBytes = options.flushBehindBytes ?? FLUSH_BEHIND_BYTES;

  const pathOf = (key: string) => {
    assertValidKey(key);
    return join(root, key);
  };
  const uploadDir = (uploadId: string) => {
    if (!UPLOAD_ID.test(uploadId)) throw new UploadNotFoundError(uploadId);
    return join(multipartDir, uploadId);
  };
  const partPath = (uploadId: string, partNumber: number) => join(uploadDir(uploadId), `${partNumber}.part`);
  const requireSigner = () => {
    if (!options.signer) throw new Error("filesystem blob store: no URL signer configured");
    return options.signer;
  };

  /** Streams into a temp file (synced as it grows, flush-behind.ts), then renames it to `target`; returns the byte count. */
  async function writeAtomically(target: string, body: Readable | Uint8Array, maxSize?: number, exactSize?: number): Promise<number> {
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, randomUUID());
    const counter = new ByteCounter(maxSize, exactSize);
    // A handle of our own on the temp file (it creates it): the background flushes and the final
    // sync run on it, never on the stream's descriptor, which the stream closes when it likes.
    const syncHandle = fsync ? await open(tmp, "w") : undefined;
    let out: WriteStream | undefined;
    let behind: FlushBehind | undefined;
    try {
      const source = body instanceof Uint8Array ? Readable.from([body]) : body;
      out = createWriteStream(tmp, { highWaterMark: 1024 * 1024 });
      behind = syncHandle && flushBehindBytes > 0 ? flushBehind(syncHandle, out, { everyBytes: flushBehindBytes, slots: flushes }) : undefined;
      await (behind ? pipeline(source, counter, behind.trigger, out) : pipeline(source, counter, out));
      await behind?.drain();
      await syncHandle?.datasync();
      await mkdir(dirname(target), { recursive: true });
      await rename(tmp, target);
      if (fsync) await syncDirectory(dirname(target));
      return counter.bytes;
    } catch (err) {
      // A write stream destroyed while its file was still being opened creates the file after
      // all: remove it only once the stream has closed, or a failed write leaves a temp file.
      if (out && !out.closed) await once(out, "close").catch(() => undefined);
      await behind?.drain().catch(() => undefined);
      await rm(tmp, { force: true });
      throw err;
    } finally {
      await syncHandle?.close();
    }
  }

  async function readUploadMeta(uploadId: string): Promise<{ key: string; contentType?: string }> {
    try {
      return JSON.parse(await readFile(join(uploadDir(uploadId), "upload.json"), "utf8"));
    } catch (err) {
      if (isMissing(err)) throw new UploadNotFoundError(uploadId);
      throw err;
    }
  }

  async function partInfo(uploadId: string, partNumber: number): Promise<UploadedPart | undefined> {
    try {
      const s = await stat(partPath(uploadId, partNumber));
      return { partNumber, size: s.size, etag: `${s.size.toString(16)}-${Math.trunc(s.mtimeMs * 1000).toString(16)}` };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  const multipart: MultipartStore = {
    async create(key, opts) {
      assertValidKey(key);
      const uploadId = randomUUID();
      await mkdir(uploadDir(uploadId), { recursive: true });
      await writeFile(join(uploadDir(uploadId), "upload.json"), JSON.stringify({ key, contentType: opts?.contentType }));
      return uploadId;
    },
    minPartSize: 1,
    async presignPart(_key, uploadId, partNumber, opts) {
      return presignedPartUrl(requireSigner(), opts.baseUrl, uploadId, partNumber, opts.expiresAt, opts.maxSize);
    },
    async putPart(key, uploadId, partNumber, body, opts) {
      const meta = await readUploadMeta(uploadId);
      if (meta.key !== key) throw new UploadNotFoundError(uploadId);
      await writeAtomically(partPath(uploadId, partNumber), body, opts?.maxSize, opts?.size);
      // Aborted while the part streamed: the write re-created the upload's folder; remove it again.
      const stillThere = await readUploadMeta(uploadId).then(() => true, (err: unknown) => (err instanceof UploadNotFoundError ? false : Promise.reject(err)));
      if (!stillThere) {
        await rm(uploadDir(uploadId), { recursive: true, force: true });
        throw new UploadNotFoundError(uploadId);
      }
      const info = await partInfo(uploadId, partNumber);
      if (!info) throw new UploadNotFoundError(uploadId);
      return info;
    },
    async listParts(key, uploadId) {
      const meta = await readUploadMeta(uploadId);
      if (meta.key !== key) throw new UploadNotFoundError(uploadId);
      const names = await readdir(uploadDir(uploadId));
      const numbers = names.filter((n) => /^\d+\.part$/.test(n)).map((n) => Number.parseInt(n, 10)).sort((a, b) => a - b);
      const parts = await Promise.all(numbers.map((n) => partInfo(uploadId, n)));
      return parts.filter((p): p is UploadedPart => p !== undefined);
    },
    async complete(key, uploadId, parts, options) {
      const meta = await readUploadMeta(uploadId);
      if (meta.key !== key) throw new UploadNotFoundError(uploadId);
      for (const part of parts) {
        const current = await partInfo(uploadId, part.partNumber);
        if (!current || current.etag !== part.etag) throw new PartChangedError(part.partNumber);
      }
      // The caller's read pass (CRC, header) runs over the parts in place: no copy is written.
      if (options?.onData) await readInPlace(parts.map((p) => partPath(uploadId, p.partNumber)), options.onData);
      const target = pathOf(key);
      const previous = await composed.adopt(key, uploadDir(uploadId), parts, meta.contentType);
      // Replacing: a plain file at the key would shadow the manifest; older parts go.
      await rm(target, { force: true });
      if (previous) await composed.dropParts(previous);
      const size = parts.reduce((n, p) => n + p.size, 0);
      return { size, contentType: meta.contentType, observed: Boolean(options?.onData) };
    },
    async abort(_key, uploadId) {
      await rm(uploadDir(uploadId), { recursive: true, force: true });
    },
  };

  const presigned: PresignVerifier = {
    verifyPart: (query, now) => verifyPresignedPart(requireSigner(), query, now),
    verifyBlob: (query, now) => verifyPresignedBlob(requireSigner(), query, now),
  };

  return {
    root,
    presignTarget: "gateway",
    presigned,
    multipart,
    async put(key, body, opts) {
      const size = await writeAtomically(pathOf(key), body, opts?.maxSize, opts?.size);
      await composed.remove(key);
      return { size, contentType: opts?.contentType };
    },
    async get(key: string, range?: ByteRange): Promise<BlobRead> {
      const path = pathOf(key);
      let size: number;
      try {
        size = (await stat(path)).size;
      } catch (err) {
        if (!isMissing(err)) throw err;
        const manifest = await composed.read(key);
        if (!manifest) throw new BlobNotFoundError(key);
        const served = manifest.size === 0 ? undefined : resolveRange(range, manifest.size);
        const body = Readable.from(composed.stream(manifest, served?.start ?? 0, served?.end ?? manifest.size - 1), { objectMode: false, highWaterMark: READ_CHUNK });
        return { size: manifest.size, body, range: served };
      }
      const served = size === 0 ? undefined : resolveRange(range, size);
      const body = createReadStream(path, { start: served?.start, end: served?.end, highWaterMark: READ_CHUNK });
      return { size, body, range: served };
    },
    async stat(key): Promise<BlobInfo | undefined> {
      try {
        return { size: (await stat(pathOf(key))).size };
      } catch (err) {
        if (!isMissing(err)) throw err;
        const manifest = await composed.read(key);
        return manifest ? { size: manifest.size } : undefined;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
      await composed.remove(key);
    },
    async deletePrefix(prefix) {
      assertValidPrefix(prefix);
      // Plain blobs are files under the prefix's directory; composed ones are manifests (and their parts).
      await rm(join(root, prefix), { recursive: true, force: true });
      await composed.removePrefix(prefix);
    },
    async presignGet(key, opts: PresignOptions & { filename?: string; contentType?: string }) {
      assertValidKey(key);
      return presignedBlobUrl(requireSigner(), opts.baseUrl, key, opts.expiresAt, { filename: opts.filename, contentType: opts.contentType });
    },
  };
}

/**
 * Shows the files' bytes to `onData` through one reused buffer: a read stream
 * would allocate a fresh buffer per read, and reading from the page cache
 * outruns the GC by tens of MB of resident memory on a 1 GiB blob.
 */
async function readInPlace(paths: string[], onData: (chunk: Buffer) => void): Promise<void> {
  const buffer = Buffer.allocUnsafe(READ_CHUNK * 4);
  for (const path of paths) {
    const handle = await open(path, "r");
    try {
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        onData(buffer.subarray(0, bytesRead));
      }
    } finally {
      await handle.close();
    }
  }
}
