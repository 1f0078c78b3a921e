// S3 adapter (`STORAGE_URL=s3://bucket[/prefix]`): objects under the prefix,
// multipart uploads map onto S3's own (presigned UploadPart URLs go straight
// to the object store). Bodies stream both ways; a body of unknown length is
// uploaded in bounded parts (or spooled to a temp file for one part), never
// held whole.
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, type Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import {
  assertValidKey,
  assertValidPrefix,
  BlobNotFoundError,
  BlobTooLargeError,
  resolveRange,
  PartChangedError,
  UploadNotFoundError,
  type BlobInfo,
  type BlobStore,
  type MultipartStore,
  type UploadedPart,
} from "../blob-store.js";
import { ByteCounter } from "../byte-limit.js";

export interface S3Settings {
  bucket: string;
  /** Key prefix inside the bucket ("" for none). */
  prefix?: string;
  endpoint?: string;
  region: string;
  /** Path-style addressing (local S3-compatible servers). */
  forcePathStyle?: boolean;
  credentials?: S3ClientConfig["credentials"];
  /** Part size when `put` gets a body of unknown length (default 8 MiB). */
  putPartSize?: number;
}

const MIN_PART = 5 * 1024 * 1024;

function errorName(err: unknown): string {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  if (e?.$metadata?.httpStatusCode === 404 && !e.name?.startsWith("NoSuch")) return "NotFound";
  return e?.name ?? e?.Code ?? "";
}

function isNotFound(err: unknown): boolean {
  return ["NotFound", "NoSuchKey"].includes(errorName(err));
}

function isNoSuchUpload(err: unknown): boolean {
  return errorName(err) === "NoSuchUpload" || (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 404;
}

/**
 * `body.pipe(next)`, with a failure of `body` failing `next`, including one that happened before
 * this call: a caller's stream may fail while its put waits (the lazy store loading the SDK, see
 * lazy-blob-store.ts), and a pipe from a stream already destroyed never ends `next`, so the put
 * (and the upload holding it) would wait forever.
 */
function pipedInto<T extends Transform>(body: Readable, next: T): T {
  if (body.destroyed) {
    next.destroy(body.errored ?? new Error("the body was destroyed before it was read"));
    return next;
  }
  body.on("error", (e) => next.destroy(e));
  return body.pipe(next);
}

export function createS3BlobStore(settings: S3Settings): BlobStore {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // No flexible checksums unless required: streamed bodies stay plain PUTs, and
    // presigned part URLs need no checksum headers from the client.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = settings.bucket;
  const prefix = settings.prefix ? `${settings.prefix.replace(/\/+$/, "")}/` : "";
  const putPartSize = Math.max(MIN_PART, settings.putPartSize ?? 8 * 1024 * 1024);
  const objectKey = (key: string) => {
    assertValidKey(key);
    return prefix + key;
  };

  async function head(key: string): Promise<BlobInfo | undefined> {
    try {
      const r = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
      return { size: Number(r.ContentLength ?? 0), contentType: r.ContentType };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Reads up to `size` bytes from an async iterator of chunks (keeps the remainder for the next call). */
  function partReader(source: AsyncIterator<Buffer>) {
    let rest: Buffer | undefined;
    let done = false;
    return async (size: number): Promise<Buffer | undefined> => {
      const chunks: Buffer[] = [];
      let have = 0;
      while (have < size) {
        let chunk = rest;
        rest = undefined;
        if (!chunk) {
          if (done) break;
          const next = await source.next();
          if (next.done) {
            done = true;
            break;
          }
          chunk = next.value;
        }
        if (have + chunk.length > size) {
          rest = chunk.subarray(size - have);
          chunk = chunk.subarray(0, size - have);
        }
        chunks.push(chunk);
        have += chunk.length;
      }
      return have === 0 ? undefined : Buffer.concat(chunks, have);
    };
  }

  async function putUnknownLength(key: string, body: Readable, contentType: string | undefined): Promise<number> {
    const read = partReader(body[Symbol.asyncIterator]());
    const first = await read(putPartSize);
    const second = first && first.length === putPartSize ? await read(putPartSize) : undefined;
    if (!second) {
      await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: first ?? Buffer.alloc(0), ContentType: contentType }));
      return first?.length ?? 0;
    }
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: objectKey(key), ContentType: contentType }));
    const parts: Array<{ ETag?: string; PartNumber: number }> = [];
    let total = 0;
    try {
      let partNumber = 1;
      // At most one part is held at a time (plus the look-ahead `second` once).
      for (let part: Buffer | undefined = first; part; part = partNumber === 2 ? second : await read(putPartSize)) {
        const r = await client.send(new UploadPartCommand({ Bucket, Key: objectKey(key), UploadId, PartNumber: partNumber, Body: part }));
        parts.push({ ETag: r.ETag, PartNumber: partNumber });
        total += part.length;
        partNumber++;
      }
      await client.send(new CompleteMultipartUploadCommand({ Bucket, Key: objectKey(key), UploadId, MultipartUpload: { Parts: parts } }));
      return total;
    } catch (err) {
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key: objectKey(key), UploadId })).catch(() => undefined);
      throw err;
    }
  }

  /**
   * A body for an S3 request that needs a length: as given (checked to be
   * exactly that long), or spooled to a temp file first. A failing body aborts
   * the request, so the store never records a short object or part.
   */
  async function withKnownLength<T>(body: Readable, size: number | undefined, maxSize: number | undefined, send: (body: Readable, length: number, abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    if (size !== undefined) {
      if (maxSize !== undefined && size > maxSize) throw new BlobTooLargeError(maxSize);
      const counter = new ByteCounter(size, size);
      let failure: Error | undefined;
      const fail = (e: Error) => {
        failure ??= e;
        controller.abort(e);
      };
      counter.on("error", fail);
      try {
        return await send(pipedInto(body, counter), size, controller.signal);
      } catch (err) {
        throw failure ?? err;
      }
    }
    const dir = await mkdtemp(join(tmpdir(), "s3-spool-"));
    try {
      const file = join(dir, "part");
      const counter = new ByteCounter(maxSize);
      await pipeline(body, counter, createWriteStream(file));
      return await send(createReadStream(file), counter.bytes, controller.signal);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  const multipart: MultipartStore = {
    minPartSize: MIN_PART,
    async create(key, options) {
      const r = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: objectKey(key), ContentType: options?.contentType }));
      if (!r.UploadId) throw new Error("S3 returned no UploadId");
      return r.UploadId;
    },
    async presignPart(key, uploadId, partNumber, options) {
      const expiresIn = Math.max(1, Math.floor((options.expiresAt - Date.now()) / 1000));
      return getSignedUrl(client, new UploadPartCommand({ Bucket, Key: objectKey(key), UploadId: uploadId, PartNumber: partNumber }), { expiresIn });
    },
    async putPart(key, uploadId, partNumber, body, options) {
      const r = await withKnownLength(body, options?.size, options?.maxSize, (b, length, abortSignal) =>
        client.send(new UploadPartCommand({ Bucket, Key: objectKey(key), UploadId: uploadId, PartNumber: partNumber, Body: b, ContentLength: length }), { abortSignal }).then((res) => ({ res, length })),
      ).catch((err) => {
        if (isNoSuchUpload(err)) throw new UploadNotFoundError(uploadId);
        throw err;
      });
      return { partNumber, etag: r.res.ETag ?? "", size: r.length };
    },
    async listParts(key, uploadId) {
      const parts: UploadedPart[] = [];
      let marker: string | undefined;
      try {
        for (;;) {
          const r = await client.send(new ListPartsCommand({ Bucket, Key: objectKey(key), UploadId: uploadId, PartNumberMarker: marker }));
          for (const p of r.Parts ?? []) parts.push({ partNumber: p.PartNumber ?? 0, etag: p.ETag ?? "", size: Number(p.Size ?? 0) });
          if (!r.IsTruncated) break;
          marker = r.NextPartNumberMarker;
        }
      } catch (err) {
        if (isNoSuchUpload(err)) throw new UploadNotFoundError(uploadId);
        throw err;
      }
      return parts.sort((a, b) => a.partNumber - b.partNumber);
    },
    async complete(key, uploadId, parts) {
      try {
        await client.send(new CompleteMultipartUploadCommand({ Bucket, Key: objectKey(key), UploadId: uploadId, MultipartUpload: { Parts: parts.map((p) => ({ ETag: p.etag, PartNumber: p.partNumber })) } }));
      } catch (err) {
        if (isNoSuchUpload(err)) throw new UploadNotFoundError(uploadId);
        // S3's answer for a listed part whose ETag is no longer the stored one.
        if (errorName(err) === "InvalidPart") throw new PartChangedError();
        throw err;
      }
      const info = await head(key);
      if (!info) throw new BlobNotFoundError(key);
      return { ...info, observed: false };
    },
    async abort(key, uploadId) {
      try {
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key: objectKey(key), UploadId: uploadId }));
      } catch (err) {
        if (!isNoSuchUpload(err)) throw err;
      }
    },
  };

  return {
    presignTarget: "external",
    multipart,
    async put(key, body, options) {
      if (body instanceof Uint8Array) {
        if (options?.maxSize !== undefined && body.length > options.maxSize) throw new BlobTooLargeError(options.maxSize);
        await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: body, ContentType: options?.contentType }));
        return { size: body.length, contentType: options?.contentType };
      }
      if (options?.size !== undefined) {
        await withKnownLength(body, options.size, options.maxSize, (b, length, abortSignal) =>
          client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: b, ContentLength: length, ContentType: options.contentType }), { abortSignal }),
        );
        return { size: options.size, contentType: options.contentType };
      }
      const counter = new ByteCounter(options?.maxSize);
      const size = await putUnknownLength(key, pipedInto(body, counter), options?.contentType);
      return { size, contentType: options?.contentType };
    },
    async get(key, range) {
      const info = await head(key);
      if (!info) throw new BlobNotFoundError(key);
      const served = info.size === 0 ? undefined : resolveRange(range, info.size);
      let r;
      try {
        r = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key), Range: served ? `bytes=${served.start}-${served.end}` : undefined }));
      } catch (err) {
        // Deleted since the HEAD above (a file removed while its download starts): gone, as if the HEAD had missed it.
        if (isNotFound(err)) throw new BlobNotFoundError(key);
        throw err;
      }
      return { size: info.size, contentType: info.contentType, body: r.Body as Readable, range: served };
    },
    stat: head,
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async deletePrefix(keyPrefix) {
      assertValidPrefix(keyPrefix);
      // One listing page (up to 1,000 keys) per batch delete; deleting while listing is safe
      // because each round lists again from the start of what is left.
      for (;;) {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix + keyPrefix, MaxKeys: 1000 }));
        const keys = (page.Contents ?? []).map((o) => o.Key).filter((k): k is string => Boolean(k));
        if (keys.length === 0) return;
        const result = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }));
        const failed = result.Errors ?? [];
        if (failed.length > 0) throw new Error(`could not delete ${failed.length} object(s) under ${keyPrefix}: ${failed[0].Code} ${failed[0].Message ?? ""}`.trim());
        if (!page.IsTruncated) return;
      }
    },
    async presignGet(key, options) {
      const expiresIn = Math.max(1, Math.floor((options.expiresAt - Date.now()) / 1000));
      const disposition = options.filename ? `inline; filename*=UTF-8''${encodeURIComponent(options.filename)}` : undefined;
      return getSignedUrl(client, new GetObjectCommand({ Bucket, Key: objectKey(key), ResponseContentType: options.contentType, ResponseContentDisposition: disposition }), { expiresIn });
    },
  };
}
