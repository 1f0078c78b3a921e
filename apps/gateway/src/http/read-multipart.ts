// Reads the first file part of a multipart/form-data request into memory,
// with a hard cap. Only for small uploads (pictures); large media uploads
// stream through their own edge.
import busboy from "busboy";
import type { Context } from "koa";
import { HttpError } from "./error-body.js";

export interface UploadedFile {
  data: Buffer;
  contentType: string;
  filename: string;
}

export function readFirstFile(ctx: Context, limitBytes: number): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: ctx.req.headers, limits: { files: 1, fileSize: limitBytes } });
    } catch (e) {
      reject(new HttpError(400, "request.error.invalidMultipart", `Malformed multipart request: ${(e as Error).message}`));
      return;
    }
    let found: Promise<UploadedFile> | undefined;
    parser.on("file", (_name, stream, info) => {
      found = new Promise((ok, fail) => {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("limit", () => fail(new HttpError(413, "upload.error.payloadTooLarge", `The file exceeds ${limitBytes} bytes`, { maxBytes: limitBytes })));
        stream.on("end", () => ok({ data: Buffer.concat(chunks), contentType: info.mimeType, filename: info.filename ?? "" }));
      });
      found.catch(() => stream.resume());
    });
    parser.on("error", (e: Error) => reject(new HttpError(400, "request.error.invalidMultipart", `Malformed multipart request: ${e.message}`)));
    parser.on("close", () => {
      if (!found) reject(new HttpError(400, "request.error.fileMissing", "The multipart request contains no file part"));
      else found.then(resolve, reject);
    });
    ctx.req.pipe(parser);
  });
}
