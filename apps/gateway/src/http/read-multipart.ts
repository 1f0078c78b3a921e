// Reads the first file part of a multipart/form-data request into memory,
// with a hard cap. Only for small uploads (pictures); large media uploads
// stream through their own edge (streaming/body-parts.ts).
import type { Context } from "koa";
import { HttpError } from "./error-body.js";
import { invalidMultipart, MultipartError } from "./multipart/multipart-error.js";
import { isFilePart, multipartBoundary, type PartHead } from "./multipart/part-headers.js";
import { scanMultipart } from "./multipart/scan-multipart.js";
import { capped, MAX_FIELD_BYTES } from "./body-cap.js";

export interface UploadedFile {
  data: Buffer;
  contentType: string;
  filename: string;
}

/**
 * The first file part (later parts are read and skipped). Refused with 413 as soon as
 * the file passes `limitBytes`, or the whole body passes it by more than a form
 * field's worth; with 400 when the body holds no file. (The gateway drains what a
 * refused client still sends.)
 */
export async function readFirstFile(ctx: Context, limitBytes: number): Promise<UploadedFile> {
  const boundary = multipartBoundary(ctx.get("content-type"));
  if (!boundary) throw invalidMultipart("the Content-Type names no boundary");
  const tooLarge = () => new HttpError(413, "upload.error.payloadTooLarge", `The file exceeds ${limitBytes} bytes`, { maxBytes: limitBytes });
  const source = capped(ctx.req.iterator({ destroyOnReturn: false }), limitBytes + MAX_FIELD_BYTES);
  let file: { head: PartHead; chunks: Buffer[]; size: number } | undefined;
  let reading = false;
  try {
    for await (const item of scanMultipart(source, boundary)) {
      if (item.kind === "head") {
        // An empty, nameless file part is a file input left empty ("no file chosen"): not the file.
        if (file && file.size === 0 && file.head.filename === "") file = undefined;
        reading = !file && isFilePart(item.head);
        if (reading) file = { head: item.head, chunks: [], size: 0 };
      } else if (reading && file) {
        file.size += item.chunk.length;
        if (file.size > limitBytes) throw tooLarge();
        file.chunks.push(item.chunk);
      }
    }
  } catch (err) {
    if (err instanceof MultipartError) throw invalidMultipart(err.message);
    // The body's own cap speaks of the body; the caller asked about a file.
    throw err instanceof HttpError && err.status === 413 ? tooLarge() : err;
  }
  if (file && file.size === 0 && file.head.filename === "") file = undefined;
  if (!file) throw new HttpError(400, "request.error.fileMissing", "The multipart request contains no file part");
  return { data: Buffer.concat(file.chunks, file.size), contentType: file.head.contentType, filename: file.head.filename ?? "" };
}
