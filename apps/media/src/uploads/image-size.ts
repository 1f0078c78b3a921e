// "width, height: recalculated by the server when missing": read from the
// first bytes of the images it can parse (PNG, JPEG, GIF, WebP, SVG headers).
// The server never decodes pixels and never generates thumbnails.
import { badUpload } from "./upload-errors.js";

export interface ImageSize {
  width: number;
  height: number;
}

/** Width and height are stored as 32-bit integers (as the client's query values are): a header claiming more is no size. */
const MAX_DIMENSION = 2_147_483_647;

function positive(size: ImageSize): ImageSize | undefined {
  const fits = (n: number) => n > 0 && n <= MAX_DIMENSION && Number.isFinite(n);
  return fits(size.width) && fits(size.height) ? size : undefined;
}

function png(b: Buffer): ImageSize | undefined {
  if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47 || b.toString("latin1", 12, 16) !== "IHDR") return undefined;
  return positive({ width: b.readUInt32BE(16), height: b.readUInt32BE(20) });
}

function gif(b: Buffer): ImageSize | undefined {
  if (b.length < 10 || !/^GIF8[79]a$/.test(b.toString("latin1", 0, 6))) return undefined;
  return positive({ width: b.readUInt16LE(6), height: b.readUInt16LE(8) });
}

/**
 * Whether an APP1 segment's Exif data (bytes start..end of `b`) sets an Orientation of 5 to 8: the
 * picture is stored turned by 90°, and every viewer (browsers, the players' web views) shows it
 * with width and height swapped, as the client's own width and height of it would be.
 */
function exifTransposes(b: Buffer, start: number, end: number): boolean {
  if (end > b.length || end - start < 14 || b.toString("latin1", start, start + 6) !== "Exif\0\0") return false;
  const tiff = start + 6;
  const order = b.toString("latin1", tiff, tiff + 2);
  if (order !== "II" && order !== "MM") return false;
  const u16 = (at: number) => (order === "II" ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (at: number) => (order === "II" ? b.readUInt32LE(at) : b.readUInt32BE(at));
  if (u16(tiff + 2) !== 42) return false;
  const ifd = tiff + u32(tiff + 4);
  if (ifd + 2 > end) return false;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return false;
    if (u16(entry) === 0x0112) {
      const orientation = u16(entry + 8);
      return orientation >= 5 && orientation <= 8;
    }
  }
  return false;
}

function jpeg(b: Buffer): ImageSize | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let at = 2;
  let transposed = false;
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
      const height = b.readUInt16BE(at + 5);
      const width = b.readUInt16BE(at + 7);
      return positive(transposed ? { width: height, height: width } : { width, height });
    }
    // APP1 (Exif) comes before the frame header.
    if (marker === 0xe1 && exifTransposes(b, at + 4, at + 2 + length)) transposed = true;
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

// CSS absolute units in pixels (1in = 96px); relative ones (em, %, ...) have no size of their own.
const SVG_UNIT_PX: Record<string, number> = { "": 1, px: 1, pt: 96 / 72, pc: 16, in: 96, cm: 96 / 2.54, mm: 96 / 25.4, q: 96 / 101.6 };

function svgLength(value: string | undefined): number | undefined {
  const m = value ? /^\s*\+?([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*(px|pt|pc|in|cm|mm|q)?\s*$/i.exec(value) : null;
  return m ? Math.round(Number(m[1]) * SVG_UNIT_PX[(m[2] ?? "").toLowerCase()]) : undefined;
}

function svg(b: Buffer): ImageSize | undefined {
  // Comments (and one the header cuts off) may hold markup that is not the image's.
  const text = b.toString("utf8").replace(/<!--[\s\S]*?(?:-->|$)/g, "");
  const tag = /<svg\b[^>]*>/i.exec(text)?.[0];
  if (!tag) return undefined;
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, "i").exec(tag)?.[1];
  const width = svgLength(attr("width"));
  const height = svgLength(attr("height"));
  if (width && height) return positive({ width, height });
  const box = attr("viewBox")?.trim().split(/[\s,]+/).map(Number);
  if (box?.length !== 4 || !(box[2] > 0 && box[3] > 0 && Number.isFinite(box[2]) && Number.isFinite(box[3]))) return undefined;
  // One length given: the other follows from the viewBox's aspect ratio, as a viewer sizes it.
  if (width) return positive({ width, height: Math.round((width * box[3]) / box[2]) });
  if (height) return positive({ width: Math.round((height * box[2]) / box[3]), height });
  return positive({ width: Math.round(box[2]), height: Math.round(box[3]) });
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
