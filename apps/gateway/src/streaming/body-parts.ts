// The HTTP request body as a pull-based sequence of StreamedBodyPart values:
// multipart/form-data through busboy (one head per field or file, then the
// file's chunks), anything else as one raw part. Nothing is read ahead of the
// consumer: busboy stops parsing while a file stream is not drained, and the
// request socket is paused in turn (backpressure end to end).
import busboy from "busboy";
import type { Context } from "koa";
import type { Readable } from "node:stream";
import { HttpError } from "../http/error-body.js";
import { coalesce } from "./chunk-coalescer.js";

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

type MultipartEvent =
  | { kind: "field"; name: string; value: string; mimeType: string }
  | { kind: "file"; name: string; stream: Readable; filename: string; mimeType: string };

export function payloadTooLarge(maxBytes: number): HttpError {
  return new HttpError(413, "upload.error.payloadTooLarge", `The upload exceeds ${maxBytes} bytes`, { maxBytes });
}

function invalidMultipart(message: string): HttpError {
  return new HttpError(400, "request.error.invalidMultipart", `Malformed multipart request: ${message}`);
}

export async function* bodyParts(ctx: Context, options: BodyPartsOptions): AsyncGenerator<BodyPartInit> {
  const declared = Number(ctx.get("content-length") || Number.NaN);
  if (declared > options.maxBytes) throw payloadTooLarge(options.maxBytes);
  if (ctx.is("multipart")) yield* multipartParts(ctx, options);
  else yield* rawPart(ctx, options, Number.isFinite(declared) ? declared : undefined);
}

async function* limited(source: AsyncIterable<Buffer>, counter: { bytes: number }, options: BodyPartsOptions): AsyncGenerator<BodyPartInit> {
  for await (const chunk of coalesce(source, options.chunkBytes)) {
    counter.bytes += chunk.length;
    if (counter.bytes > options.maxBytes) throw payloadTooLarge(options.maxBytes);
    yield { case: "chunk", value: chunk };
  }
}

async function* rawPart(ctx: Context, options: BodyPartsOptions, size: number | undefined): AsyncGenerator<BodyPartInit> {
  const contentType = ctx.get("content-type") || "application/octet-stream";
  yield { case: "head", value: { field: "", filename: "", contentType, size: size === undefined ? undefined : BigInt(size) } };
  yield* limited(ctx.req as AsyncIterable<Buffer>, { bytes: 0 }, options);
}

async function* multipartParts(ctx: Context, options: BodyPartsOptions): AsyncGenerator<BodyPartInit> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: ctx.req.headers, highWaterMark: options.chunkBytes, fileHwm: options.chunkBytes, limits: { fieldSize: 1024 * 1024 } });
  } catch (e) {
    throw invalidMultipart((e as Error).message);
  }
  const events = new EventQueue<MultipartEvent>();
  parser.on("field", (name, value, info) => events.push({ kind: "field", name, value, mimeType: info.mimeType }));
  parser.on("file", (name, stream, info) => events.push({ kind: "file", name, stream, filename: info.filename ?? "", mimeType: info.mimeType }));
  parser.on("close", () => events.end());
  parser.on("error", (e: Error) => events.fail(invalidMultipart(e.message)));
  ctx.req.on("error", (e) => events.fail(e));
  ctx.req.pipe(parser);
  const counter = { bytes: 0 };
  let current: Readable | undefined;
  try {
    for (let event = await events.next(); event; event = await events.next()) {
      if (event.kind === "field") {
        yield { case: "head", value: { field: event.name, filename: "", contentType: event.mimeType, value: event.value } };
        continue;
      }
      current = event.stream;
      yield { case: "head", value: { field: event.name, filename: event.filename, contentType: event.mimeType || "application/octet-stream" } };
      yield* limited(event.stream as AsyncIterable<Buffer>, counter, options);
      current = undefined;
    }
  } finally {
    // Stopped early (error, or the service answered first): stop parsing; the
    // route drains what the client still sends.
    ctx.req.unpipe(parser);
    current?.resume();
    parser.removeAllListeners("file");
    parser.on("file", (_n, stream) => stream.resume());
    parser.on("error", () => undefined);
  }
}

/** A minimal async queue: push/end/fail from event handlers, `next()` from the consumer. */
class EventQueue<T> {
  private items: T[] = [];
  private done = false;
  private error: unknown;
  private waiter: (() => void) | undefined;

  push(item: T): void {
    this.items.push(item);
    this.wake();
  }
  end(): void {
    this.done = true;
    this.wake();
  }
  fail(error: unknown): void {
    this.error ??= error;
    this.wake();
  }
  async next(): Promise<T | undefined> {
    for (;;) {
      if (this.error !== undefined) throw this.error;
      if (this.items.length > 0) return this.items.shift();
      if (this.done) return undefined;
      await new Promise<void>((ok) => (this.waiter = ok));
    }
  }
  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }
}
