// "contentType | MIME type, detected by the client; the server validates". PNG, JPEG, GIF and WebP
// announce themselves in their first bytes, so a file declared as one of them must start as one,
// and bytes that are one of them must be declared as it: a PNG sent as image/jpeg (or as a video)
// would be served under a type it is not, and players decode by type. Refused 415 naming what the
// bytes are. Other kinds (SVG, video, audio, fonts, PDF, JSON) have no signature checked here.
import { Transform } from "node:stream";
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import { supportedContentTypes } from "./supported-types.js";

const SIGNATURES: readonly (readonly [type: string, matches: (b: Buffer) => boolean])[] = [
  ["image/png", (b) => b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a],
  ["image/jpeg", (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ["image/gif", (b) => b.length >= 6 && /^GIF8[79]a$/.test(b.toString("latin1", 0, 6))],
  ["image/webp", (b) => b.length >= 12 && b.toString("latin1", 0, 4) === "RIFF" && b.toString("latin1", 8, 12) === "WEBP"],
];

/** The signed image type the bytes start with, if any. */
function signedTypeOf(header: Buffer): string | undefined {
  return SIGNATURES.find(([, matches]) => matches(header))?.[0];
}

/**
 * 415 media.error.unsupportedMediaType when `header` contradicts `contentType` (see above).
 * `subject` names a body without a file name (a thumbnail sent as the raw body).
 */
export function assertBytesMatchType(contentType: string, header: Buffer, filename: string, subject = `'${filename}'`): void {
  const actual = signedTypeOf(header);
  const declaredSigned = SIGNATURES.some(([type]) => type === contentType);
  if (actual === contentType || (actual === undefined && !declaredSigned)) return;
  const what = actual === undefined ? `no ${contentType} image (its first bytes are not one)` : `a ${actual} image`;
  throw serviceError(Code.InvalidArgument, "media.error.unsupportedMediaType", `The content of ${subject} is ${what}, but it was declared as ${contentType}`, {
    contentType,
    ...(filename ? { filename } : {}),
    ...(actual === undefined ? {} : { detectedContentType: actual }),
  });
}

/**
 * A thumbnail's or preview's bytes, checked as a file's are when its type is one the platform
 * knows (a PNG must be a PNG; PNG bytes sent as image/jpeg or image/svg+xml are refused). Any
 * other image type passes whatever its bytes: image/apng is a PNG, and image/avif has no
 * signature here.
 */
export function assertThumbnailBytes(contentType: string, header: Buffer, filename: string): void {
  if (!supportedContentTypes().includes(contentType)) return;
  assertBytesMatchType(contentType, header, filename, filename ? `'${filename}'` : "the thumbnail");
}

/** The longest signature above (WebP: "RIFF" size "WEBP"). */
const SIGNATURE_BYTES = 12;

/**
 * The same check on a stream's first bytes, as they pass (a chunked upload's part 1): the stream
 * fails with the 415 as soon as they contradict `contentType`, so its writer keeps nothing and the
 * client learns it before sending the rest, not at complete. With `moreFollow` (later parts hold
 * the rest of the file) a stream shorter than a signature proves nothing: a PNG sent in 5-byte
 * chunks is still a PNG, so the check is left to complete, which reads the assembled header.
 */
export function checkingFirstBytes(contentType: string, filename: string, moreFollow = false): Transform {
  const head: Buffer[] = [];
  let seen = 0;
  let checked = false;
  const check = () => {
    checked = true;
    assertBytesMatchType(contentType, Buffer.concat(head), filename);
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (checked) return done(null, chunk);
      head.push(chunk.subarray(0, SIGNATURE_BYTES - seen));
      seen += Math.min(chunk.length, SIGNATURE_BYTES - seen);
      try {
        if (seen >= SIGNATURE_BYTES) check();
        done(null, chunk);
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done) {
      try {
        if (!checked && !moreFollow) check();
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  });
}
