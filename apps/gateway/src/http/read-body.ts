// Reads a small request body (JSON or form-encoded) with a size cap.
// Large payloads (uploads) never come through here: they stream.
import type { Context } from "koa";
import { HttpError } from "./error-body.js";

/** The limit in details too, as the upload 413s carry it: a client can tell how much it may send. */
const tooLarge = (limitBytes: number) => new HttpError(413, "request.error.tooLarge", `Request body exceeds ${limitBytes} bytes`, { maxBytes: limitBytes });

export async function readRawBody(ctx: Context, limitBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get("content-length") || 0);
  if (declared > limitBytes) throw tooLarge(limitBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  // Not destroyed when refused midway: the gateway drains the rest, so the client sees the 413.
  for await (const chunk of ctx.req.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) throw tooLarge(limitBytes);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** RFC 8259 8.1: JSON exchanged between systems "MUST be encoded using UTF-8"; `charset=utf-8` may be stated, nothing else. */
const UTF8_CHARSET = /^"?utf-?8"?$/i;
/** Malformed UTF-8 is refused, not replaced by U+FFFD (which would store `caf\uFFFD` for a Latin-1 `café`). The BOM is kept, so JSON.parse refuses it as before. */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export async function readJsonBody(ctx: Context, limitBytes: number): Promise<unknown> {
  const raw = await readRawBody(ctx, limitBytes);
  if (raw.length === 0) return undefined;
  if (!ctx.is("json") && ctx.get("content-type")) {
    throw new HttpError(415, "request.error.unsupportedMediaType", `Expected Content-Type application/json, got ${ctx.get("content-type")}`);
  }
  // RFC 9110 8.4.1: a content coding the server does not apply (gzip, br) is 415, not "not valid JSON".
  const coding = ctx.get("content-encoding").trim();
  if (coding !== "" && coding.toLowerCase() !== "identity") {
    throw new HttpError(415, "request.error.unsupportedMediaType", `Content-Encoding ${coding} is not supported: send the JSON body uncompressed`);
  }
  const charset = ctx.request.charset;
  if (charset && !UTF8_CHARSET.test(charset)) {
    throw new HttpError(415, "request.error.unsupportedMediaType", `JSON bodies are UTF-8 (RFC 8259); charset ${charset} is not supported`);
  }
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new HttpError(400, "request.error.invalidJson", "Request body is not valid JSON: it is not valid UTF-8 (RFC 8259 8.1)");
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, "request.error.invalidJson", `Request body is not valid JSON: ${(e as Error).message}`);
  }
}

export async function readFormBody(ctx: Context, limitBytes: number): Promise<URLSearchParams> {
  if (!ctx.is("application/x-www-form-urlencoded")) {
    throw new HttpError(415, "request.error.unsupportedMediaType", "Expected Content-Type application/x-www-form-urlencoded");
  }
  return new URLSearchParams((await readRawBody(ctx, limitBytes)).toString("utf8"));
}
