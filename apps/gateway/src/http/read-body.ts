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

export async function readJsonBody(ctx: Context, limitBytes: number): Promise<unknown> {
  const raw = await readRawBody(ctx, limitBytes);
  if (raw.length === 0) return undefined;
  if (!ctx.is("json") && ctx.get("content-type")) {
    throw new HttpError(415, "request.error.unsupportedMediaType", `Expected Content-Type application/json, got ${ctx.get("content-type")}`);
  }
  try {
    return JSON.parse(raw.toString("utf8"));
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
