// Profile pictures: small images kept in core, type taken from the bytes
// (never trusted from the client).
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";

export const MAX_PROFILE_PICTURE_BYTES = 2 * 1024 * 1024;

export function sniffImageType(data: Uint8Array): string | undefined {
  const b = Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, 16));
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length >= 6 && (b.subarray(0, 6).toString("latin1") === "GIF87a" || b.subarray(0, 6).toString("latin1") === "GIF89a")) return "image/gif";
  if (b.length >= 12 && b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP") return "image/webp";
  return undefined;
}

export function checkProfilePicture(data: Uint8Array): string {
  if (data.byteLength === 0) throw serviceError(Code.InvalidArgument, "user.error.pictureMissing", "The upload contains no image");
  if (data.byteLength > MAX_PROFILE_PICTURE_BYTES) {
    throw serviceError(Code.InvalidArgument, "upload.error.payloadTooLarge", `A profile picture may have at most ${MAX_PROFILE_PICTURE_BYTES} bytes`, {
      maxBytes: MAX_PROFILE_PICTURE_BYTES,
    });
  }
  const type = sniffImageType(data);
  if (!type) throw serviceError(Code.InvalidArgument, "media.error.unsupportedMediaType", "A profile picture must be a PNG, JPEG, GIF or WebP image");
  return type;
}
