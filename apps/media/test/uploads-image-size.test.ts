// "width, height: recalculated by the server when missing" — header parsing
// for the image kinds it can read (PNG, JPEG, GIF, WebP, SVG); no decoding.
import { describe, expect, it } from "vitest";
import { imageSize } from "../src/uploads/image-size.js";
import { extensionOf, validateContentType } from "../src/uploads/supported-types.js";
import { png } from "./uploads-support.js";

function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.from([0xff, 0xc2, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

function gif(width: number, height: number): Buffer {
  const b = Buffer.alloc(13);
  b.write("GIF89a", 0, "latin1");
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return b;
}

function webpVp8x(width: number, height: number): Buffer {
  const b = Buffer.alloc(30);
  b.write("RIFF", 0, "latin1");
  b.write("WEBP", 8, "latin1");
  b.write("VP8X", 12, "latin1");
  b.writeUIntLE(width - 1, 24, 3);
  b.writeUIntLE(height - 1, 27, 3);
  return b;
}

function webpLossless(width: number, height: number): Buffer {
  const b = Buffer.alloc(30);
  b.write("RIFF", 0, "latin1");
  b.write("WEBP", 8, "latin1");
  b.write("VP8L", 12, "latin1");
  b[20] = 0x2f;
  b.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
  return b;
}

describe("image header sizes", () => {
  it("PNG, JPEG (progressive SOF2 after APP0), GIF, WebP (VP8X and VP8L)", () => {
    expect(imageSize("image/png", png(640, 480))).toEqual({ width: 640, height: 480 });
    expect(imageSize("image/jpeg", jpeg(1920, 1080))).toEqual({ width: 1920, height: 1080 });
    expect(imageSize("image/gif", gif(320, 200))).toEqual({ width: 320, height: 200 });
    expect(imageSize("image/webp", webpVp8x(4000, 3000))).toEqual({ width: 4000, height: 3000 });
    expect(imageSize("image/webp", webpLossless(123, 456))).toEqual({ width: 123, height: 456 });
  });

  it("SVG from width/height attributes, else from the viewBox", () => {
    expect(imageSize("image/svg+xml", Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="300px" height="150">'))).toEqual({ width: 300, height: 150 });
    expect(imageSize("image/svg+xml", Buffer.from('<svg viewBox="0 0 1024 768" xmlns="http://www.w3.org/2000/svg"></svg>'))).toEqual({ width: 1024, height: 768 });
    expect(imageSize("image/svg+xml", Buffer.from('<svg width="100%" height="100%"></svg>'))).toBeUndefined();
  });

  it("unreadable or truncated headers give no size rather than a wrong one", () => {
    expect(imageSize("image/png", Buffer.from("not a png"))).toBeUndefined();
    expect(imageSize("image/jpeg", jpeg(10, 10).subarray(0, 12))).toBeUndefined();
    expect(imageSize("video/mp4", png(10, 10))).toBeUndefined();
  });
});

describe("supported kinds table", () => {
  it("accepts every kind of document 1 (Images, Videos, Audio, Fonts, Documents, Data) and refuses others", () => {
    const ok = ["image/png", "image/jpeg", "image/gif", "image/svg+xml", "image/webp", "video/mp4", "video/webm", "video/quicktime", "audio/mpeg", "audio/wav", "audio/ogg", "font/ttf", "font/otf", "font/woff", "font/woff2", "application/pdf", "application/json"];
    for (const type of ok) expect(validateContentType(type, `f${extensionOf(type)}`)).toBe(type);
    expect(validateContentType("image/jpg", "f.jpg")).toBe("image/jpeg");
    expect(validateContentType("", "song.MP3")).toBe("audio/mpeg");
    for (const bad of ["text/html", "image/bmp", "application/zip", "video/x-msvideo"]) expect(() => validateContentType(bad, "f")).toThrow(/Unsupported content type/);
  });
});
