// Size limits of request bodies read in parts (uploads, multipart forms).
import { HttpError } from "./error-body.js";

/** A plain form field's value is held in memory; beyond this the request is refused. */
export const MAX_FIELD_BYTES = 1024 * 1024;
/** Plain form fields per request; beyond this the request is refused. */
export const MAX_FIELDS = 1000;

export function payloadTooLarge(maxBytes: number): HttpError {
  return new HttpError(413, "upload.error.payloadTooLarge", `The upload exceeds ${maxBytes} bytes`, { maxBytes });
}

/** The body's chunks, refused with 413 once they add up to more than `maxBytes` (whatever they hold: files, fields, padding). */
export async function* capped(source: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of source) {
    total += chunk.length;
    if (total > maxBytes) throw payloadTooLarge(maxBytes);
    yield chunk;
  }
}
