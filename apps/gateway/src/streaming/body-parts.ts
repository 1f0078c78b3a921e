// The HTTP request body as a pull-based sequence of StreamedBodyPart values:
// multipart/form-data (one head per field or file, then the file's chunks),
// anything else as one raw part. Nothing is read ahead of the consumer: the
// socket is read only when the service asks for the next message
// (backpressure end to end).
import type { Context } from "koa";
import { capped, MAX_FIELD_BYTES, MAX_FIELDS, payloadTooLarge } from "../http/body-cap.js";
import { invalidMultipart, MultipartError } from "../http/multipart/multipart-error.js";
import { isFilePart, multipartBoundary, type PartHead } from "../http/multipart/part-headers.js";
import { scanMultipart } from "../http/multipart/scan-multipart.js";
import { ChunkGroup, coalesce } from "./chunk-coalescer.js";

export interface BodyHeadInit {
  field: string;
  filename: string;
  contentType: string;
  size?: bigint;
  value?: string;
}

export type BodyPartInit = { case: "head"; value: BodyHeadInit } | { case: "chunk"; value: Uint8Array };

export interface BodyPartsOptions {
  /** Total body bytes allowed; beyond it: 413 upload.error.payloadTooLarge. */
  maxBytes: number;
  /** Bytes per chunk message. */
  chunkBytes: number;
}

export async function* bodyParts(ctx: Context, options: BodyPartsOptions): AsyncGenerator<BodyPartInit> {
  const declared = Number(ctx.get("content-length") || Number.NaN);
  if (declared > options.maxBytes) throw payloadTooLarge(options.maxBytes);
  if (ctx.is("multipart")) yield* multipartParts(ctx, options);
  else yield* rawPart(ctx, options, Number.isFinite(declared) ? declared : undefined);
}

async function* rawPart(ctx: Context, options: BodyPartsOptions, size: number | undefined): AsyncGenerator<BodyPartInit> {
  const contentType = ctx.get("content-type") || "application/octet-stream";
  yield { case: "head", value: { field: "", filename: "", contentType, size: size === undefined ? undefined : BigInt(size) } };
  // Not destroyed when we stop early: the route drains what the client still sends.
  for await (const chunk of coalesce(capped(ctx.req.iterator({ destroyOnReturn: false }), options.maxBytes), options.chunkBytes)) yield { case: "chunk", value: chunk };
}

/** A plain field's value as its charset says (UTF-8 when it names none we know). */
function fieldValue(head: PartHead, chunks: Buffer[]): string {
  const bytes = Buffer.concat(chunks);
  try {
    return new TextDecoder(head.charset ?? "utf-8").decode(bytes);
  } catch {
    return bytes.toString("utf8");
  }
}

async function* multipartParts(ctx: Context, options: BodyPartsOptions): AsyncGenerator<BodyPartInit> {
  const boundary = multipartBoundary(ctx.get("content-type"));
  if (!boundary) throw invalidMultipart("the Content-Type names no boundary");
  // Not destroyed when we stop early (an error, or the service answered first):
  // the route drains what the client still sends, so it sees the answer.
  const items = scanMultipart(capped(ctx.req.iterator({ destroyOnReturn: false }), options.maxBytes), boundary);
  const group = new ChunkGroup(options.chunkBytes);
  let fields = 0;
  let field: { head: PartHead; chunks: Buffer[]; size: number } | undefined;
  // A file part without a name is sent once it has bytes: browsers send an empty,
  // nameless one for a file input left empty ("no file chosen"), which is no file.
  let unnamedFile: PartHead | undefined;
  const fileHead = (head: PartHead): BodyPartInit => ({ case: "head", value: { field: head.field, filename: head.filename ?? "", contentType: head.contentType } });
  // Ends the current part: a field is sent whole, a file's last short group follows its chunks.
  function* finishPart(): Generator<BodyPartInit> {
    unnamedFile = undefined;
    if (field) yield { case: "head", value: { field: field.head.field, filename: "", contentType: field.head.contentType, value: fieldValue(field.head, field.chunks) } };
    field = undefined;
    const rest = group.take();
    if (rest) yield { case: "chunk", value: rest };
  }
  try {
    for await (const item of items) {
      if (item.kind === "head") {
        yield* finishPart();
        const { head } = item;
        if (isFilePart(head) && head.filename === "") unnamedFile = head;
        else if (isFilePart(head)) yield fileHead(head);
        else if (++fields > MAX_FIELDS) throw invalidMultipart(`the form has more than ${MAX_FIELDS} fields`);
        else field = { head, chunks: [], size: 0 };
        continue;
      }
      if (field) {
        field.size += item.chunk.length;
        if (field.size > MAX_FIELD_BYTES) throw invalidMultipart(`the form field '${field.head.field}' exceeds ${MAX_FIELD_BYTES} bytes`);
        field.chunks.push(item.chunk);
        continue;
      }
      if (unnamedFile) {
        yield fileHead(unnamedFile);
        unnamedFile = undefined;
      }
      const full = group.add(item.chunk);
      if (full) yield { case: "chunk", value: full };
    }
    yield* finishPart();
  } catch (err) {
    throw err instanceof MultipartError ? invalidMultipart(err.message) : err;
  }
}
