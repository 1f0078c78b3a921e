// Reads the first file part of a multipart/form-data request into memory,
// with a hard cap. Only for small uploads (pictures); large media uploads
// stream through their own edge (streaming/body-parts.ts).
import type { Context } from "koa";
import { HttpError } from "./error-body.js";
import { invalidMultipart, MultipartError } from "./multipart/multipart-error.js";
import { isFilePart, multipartBoundary, type PartHead } from "./multipart/part-headers.js";
import { scanMultipart } from "./multipart/scan-multipart.js";

export interface UploadedFile {
  data: Buffer;
  contentType: string;
  filename: string;
}

/** The whole body is read (parts after the first file are skipped), then the first file is answered or refused. */
export async function readFirstFile(ctx: Context, limitBytes: number): Promise<UploadedFile> {
  const boundary = multipartBoundary(ctx.get("content-type"));
  if (!boundary) throw invalidMultipart("the Content-Type names no boundary");
  let file: { head: PartHead; chunks: Buffer[]; size: number } | undefined;
  let reading = false;
  let tooLarge = false;
  try {
    for await (const item of scanMultipart(ctx.req as AsyncIterable<Buffer>, boundary)) {
      if (item.kind === "head") {
        reading = !file && isFilePart(item.head);
        if (reading) file = { head: item.head, chunks: [], size: 0 };
      } else if (reading && file && !tooLarge) {
        file.size += item.chunk.length;
        tooLarge = file.size > limitBytes;
        if (!tooLarge) file.chunks.push(item.chunk);
      }
    }
  } catch (err) {
    throw err instanceof MultipartError ? invalidMultipart(err.message) : err;
  }
  if (!file) throw new HttpError(400, "request.error.fileMissing", "The multipart request contains no file part");
  if (tooLarge) throw new HttpError(413, "upload.error.payloadTooLarge", `The file exceeds ${limitBytes} bytes`, { maxBytes: limitBytes });
  return { data: Buffer.concat(file.chunks, file.size), contentType: file.head.contentType, filename: file.head.filename ?? "" };
}
