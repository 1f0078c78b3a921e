// "width, height: recalculated by the server when missing": read from the
// first bytes of the images it can parse (PNG, JPEG, GIF, WebP, SVG headers).
// The server never decodes pixels and never generates thumbnails.
import { badUpload } from "./upload-errors.js";

export interface ImageSize {
  width: number;
  height: number;
}

function positive(size: ImageSize): ImageSize | undefined {
  return size.width > 0 && size.height > 0 && Number.isFinite(size.width) && Number.isFinite(size.height) ? size : undefined;
}

function png(b: Buffer): ImageSize | undefined {
  if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47 || b.toString("latin1", 12, 16) !== "IHDR") return undefined;
  return positive({ width: b.readUInt32BE(16), height: b.readUInt32BE(20) });
}

function gif(b: Buffer): ImageSize | undefined {
  if (b.length < 10 || !/^GIF8[79]a$/.test(b.toString("latin1", 0, 6))) return undefined;
  return positive({ width: b.readUInt16LE(6), height: b.readUInt16LE(8) });
}

function jpeg(b: Buffer): ImageSize | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = b.readUInt16BE(at + 2);
    // SOF0..SOF15 carry the frame size; C4 (DHT), C8 (JPG), CC (DAC) do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return positive({ height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) });
    }
    at += 2 + length;
  }
  return undefined;
}

function webp(b: Buffer): ImageSize | undefined {
  if (b.length < 30 || b.toString("latin1", 0, 4) !== "RIFF" || b.toString("latin1", 8, 12) !== "WEBP") return undefined;
  const chunk = b.toString("latin1", 12, 16);
  if (chunk === "VP8X") return positive({ width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) });
  if (chunk === "VP8L" && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return positive({ width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) });
  }
  if (chunk === "VP8 " && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return positive({ width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff });
  }
  return undefined;
}

function svgLength(value: string | undefined): number | undefined {
  const m = value ? /^\s*([0-9]*\.?[0-9]+)\s*(px)?\s*$/.exec(value) : null;
  return m ? Math.round(Number(m[1])) : undefined;
}

function svg(b: Buffer): ImageSize | undefined {
  const text = b.toString("utf8");
  const tag = /<svg\b[^>]*>/i.exec(text)?.[0];
  if (!tag) return undefined;
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, "i").exec(tag)?.[1];
  const width = svgLength(attr("width"));
  const height = svgLength(attr("height"));
  if (width && height) return positive({ width, height });
  const box = attr("viewBox")?.trim().split(/[\s,]+/).map(Number);
  if (box?.length === 4) return positive({ width: Math.round(box[2]), height: Math.round(box[3]) });
  return undefined;
}

/** The pixel size from an image's first bytes, or undefined when unknown. */
export function imageSize(contentType: string, header: Buffer): ImageSize | undefined {
  switch (contentType) {
    case "image/png": return png(header);
    case "image/gif": return gif(header);
    case "image/jpeg": return jpeg(header);
    case "image/webp": return webp(header);
    case "image/svg+xml": return svg(header);
    default: return undefined;
  }
}

/**
 * A width or height the client sent (simple upload query, chunked init body): pixels,
 * so never negative (400 upload.error.invalidDimension); 0 counts as missing, so the
 * server recalculates it like an omitted one.
 */
export function clientDimension(value: number | undefined, parameter: "width" | "height"): number | undefined {
  if (value === undefined || value === 0) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw badUpload("upload.error.invalidDimension", `${parameter} must be a positive number of pixels, got ${value}`, { parameter, value });
  }
  return value;
}
