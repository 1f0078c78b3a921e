// "contentType | MIME type, detected by the client; the server validates". PNG, JPEG, GIF and WebP
// announce themselves in their first bytes, so a file declared as one of them must start as one,
// and bytes that are one of them must be declared as it: a PNG sent as image/jpeg (or as a video)
// would be served under a type it is not, and players decode by type. Refused 415 naming what the
// bytes are. Other kinds (SVG, video, audio, fonts, PDF, JSON) have no signature checked here.
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";

const SIGNATURES: readonly (readonly [type: string, matches: (b: Buffer) => boolean])[] = [
  ["image/png", (b) => b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a],
  ["image/jpeg", (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ["image/gif", (b) => b.length >= 6 && /^GIF8[79]a$/.test(b.toString("latin1", 0, 6))],
  ["image/webp", (b) => b.length >= 12 && b.toString("latin1", 0, 4) === "RIFF" && b.toString("latin1", 8, 12) === "WEBP"],
];

/** The signed image type the bytes start with, if any. */
export function signedTypeOf(header: Buffer): string | undefined {
  return SIGNATURES.find(([, matches]) => matches(header))?.[0];
}

/** 415 media.error.unsupportedMediaType when `header` contradicts `contentType` (see above). */
export function assertBytesMatchType(contentType: string, header: Buffer, filename: string): void {
  const actual = signedTypeOf(header);
  const declaredSigned = SIGNATURES.some(([type]) => type === contentType);
  if (actual === contentType || (actual === undefined && !declaredSigned)) return;
  const what = actual === undefined ? `no ${contentType} image (its first bytes are not one)` : `a ${actual} image`;
  throw serviceError(Code.InvalidArgument, "media.error.unsupportedMediaType", `The content of '${filename}' is ${what}, but it was declared as ${contentType}`, {
    contentType,
    filename,
    ...(actual === undefined ? {} : { detectedContentType: actual }),
  });
}
