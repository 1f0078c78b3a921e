// Document 1 "Supported file kinds": Images PNG, JPG, JPEG, GIF, SVG, WebP;
// Videos MP4, WebM, MOV; Audio MP3, WAV, OGG; Fonts TTF, OTF, WOFF, WOFF2;
// Documents PDF; Data JSON. Content types are the client's ("detected by the
// client; the server validates"): anything outside this table is refused (415),
// and so is a declared type of another kind than the file name's extension.
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import type { FileKind } from "@signage/runtime";
import { fileKindOf } from "../files/file-kind.js";

interface Kind {
  extensions: string[];
  /** Other names clients send for the same type. */
  aliases?: string[];
}

const SUPPORTED: Record<string, Kind> = {
  "image/png": { extensions: ["png"] },
  "image/jpeg": { extensions: ["jpg", "jpeg"], aliases: ["image/jpg", "image/pjpeg"] },
  "image/gif": { extensions: ["gif"] },
  "image/svg+xml": { extensions: ["svg"] },
  "image/webp": { extensions: ["webp"] },
  "video/mp4": { extensions: ["mp4"] },
  "video/webm": { extensions: ["webm"] },
  "video/quicktime": { extensions: ["mov"] },
  "audio/mpeg": { extensions: ["mp3"], aliases: ["audio/mp3"] },
  "audio/wav": { extensions: ["wav"], aliases: ["audio/x-wav", "audio/wave", "audio/vnd.wave"] },
  "audio/ogg": { extensions: ["ogg"], aliases: ["application/ogg"] },
  "font/ttf": { extensions: ["ttf"], aliases: ["application/x-font-ttf", "font/sfnt", "application/font-sfnt"] },
  "font/otf": { extensions: ["otf"], aliases: ["application/x-font-otf", "application/font-otf"] },
  "font/woff": { extensions: ["woff"], aliases: ["application/font-woff"] },
  "font/woff2": { extensions: ["woff2"], aliases: ["application/font-woff2"] },
  "application/pdf": { extensions: ["pdf"] },
  "application/json": { extensions: ["json"] },
};

const CANONICAL = new Map<string, string>();
const BY_EXTENSION = new Map<string, string>();
for (const [type, kind] of Object.entries(SUPPORTED)) {
  CANONICAL.set(type, type);
  for (const alias of kind.aliases ?? []) CANONICAL.set(alias, type);
  for (const ext of kind.extensions) BY_EXTENSION.set(ext, type);
}

const GENERIC = new Set(["", "application/octet-stream", "binary/octet-stream"]);

function bare(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * The name's extension as a file system would see it (trailing dots and blanks dropped, as the
 * stored name is trimmed); "" when it has none: no dot ("blob" from a nameless browser Blob,
 * "Summer campaign") or a version number ("Report v1.2"). Anything else after the last dot is
 * an extension, so `page.html_` or `evil.exe\u200b` cannot pass for a name without one.
 */
function extensionOfName(filename: string): string {
  const name = filename.replace(/[\s.]+$/u, "");
  const dot = name.lastIndexOf(".");
  if (dot < 0) return "";
  const suffix = name.slice(dot + 1).toLowerCase();
  return /^[0-9]+$/.test(suffix) ? "" : suffix;
}

// Other names the same formats go by (Windows JPEG, MPEG-4 video): they name the kind, not a supported type.
const KIND_BY_ALIAS_EXTENSION = new Map<string, FileKind>([
  ["jfif", "IMAGE"],
  ["jpe", "IMAGE"],
  ["m4v", "VIDEO"],
]);

/** The kind a file name names: undefined without an extension, "OTHER" for one outside the table. */
function kindOfName(filename: string): FileKind | undefined {
  const ext = extensionOfName(filename);
  if (!ext) return undefined;
  const type = BY_EXTENSION.get(ext);
  return type ? fileKindOf(type) : (KIND_BY_ALIAS_EXTENSION.get(ext) ?? "OTHER");
}

export function supportedContentTypes(): string[] {
  return Object.keys(SUPPORTED);
}

function refusedType(contentType: string, filename: string | undefined, expected: string, supported: string[]) {
  return serviceError(Code.InvalidArgument, "media.error.unsupportedMediaType", `Unsupported content type '${contentType || "(none)"}'${filename ? ` for '${filename}'` : ""}; ${expected}`, {
    contentType,
    ...(filename ? { filename } : {}),
    supported,
  });
}

export function unsupportedMediaType(contentType: string, filename?: string) {
  return refusedType(contentType, filename, "supported kinds: images, videos, audio, fonts, PDF, JSON", supportedContentTypes());
}

/** A simple upload whose body is not a form: "multipart/form-data; parts files[] ... previews[]". */
export function notMultipart(contentType: string) {
  return refusedType(contentType, undefined, "the upload is a multipart/form-data body with files[] (and previews[]) parts", ["multipart/form-data"]);
}

/** A thumbnail or preview that is not an image ("the client must supply a thumbnail": a picture of the file). */
export function notAnImage(contentType: string, filename?: string) {
  return refusedType(contentType, filename, "thumbnails and previews must be images (image/*): any well-formed image/<subtype>, e.g. image/png, image/jpeg, image/webp, image/avif", ["image/*"]);
}

/**
 * RFC 6838 §4.2 restricted-name (lowercased). At most 64 characters: the subtype goes into the
 * thumbnail's blob key (blob-keys.ts), whose file name must stay within a file system's 255 bytes.
 */
const IMAGE_SUBTYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;

export function isImageSubtype(subtype: string): boolean {
  return IMAGE_SUBTYPE.test(subtype);
}

/**
 * A thumbnail's or preview's type ("body image/* binary"): any image type. One the table knows
 * is made canonical (image/jpg is image/jpeg), any other well-formed image/<subtype> stays as
 * sent (its key keeps it, so it is served as it); anything else is 415.
 */
export function thumbnailContentType(declared: string | undefined, filename?: string): string {
  const type = bare(declared);
  const canonical = CANONICAL.get(type);
  if (canonical?.startsWith("image/")) return canonical;
  if (type.startsWith("image/") && isImageSubtype(type.slice("image/".length))) return type;
  throw notAnImage(type, filename);
}

/** The declared type is supported, but the file name's extension says another kind: `evil.exe` as image/png. */
function contentTypeMismatch(contentType: string, filename: string) {
  const kind = fileKindOf(contentType);
  const extensions = Object.entries(SUPPORTED)
    .filter(([type]) => fileKindOf(type) === kind)
    .flatMap(([, k]) => k.extensions.map((ext) => `.${ext}`));
  return serviceError(
    Code.InvalidArgument,
    "media.error.unsupportedMediaType",
    `Content type '${contentType}' does not match the file name '${filename}': ${kind.toLowerCase()} files are named ${extensions.join(", ")}`,
    { contentType, filename, extensions, supported: supportedContentTypes() },
  );
}

/**
 * The canonical content type of an upload, or 415. A generic type
 * (application/octet-stream, or none) is read from the file name's extension;
 * any other must be of the kind an extension names (the kinds table is by
 * extension), so the client's type cannot relabel another file (`page.html` as SVG).
 * A name without an extension leaves the declared type to decide.
 */
export function validateContentType(declared: string | undefined, filename: string): string {
  const type = bare(declared);
  const canonical = GENERIC.has(type) ? BY_EXTENSION.get(extensionOfName(filename)) : CANONICAL.get(type);
  if (!canonical) throw unsupportedMediaType(type, filename || undefined);
  // Same kind, not same type: the client detects the type, e.g. a PNG saved as photo.jpg.
  const named = kindOfName(filename);
  if (named !== undefined && named !== fileKindOf(canonical)) throw contentTypeMismatch(canonical, filename);
  return canonical;
}

/** ".png" for image/png; "" for types outside the table (a thumbnail's key then carries its subtype, blob-keys.ts). */
export function extensionOf(contentType: string): string {
  const canonical = CANONICAL.get(bare(contentType));
  return canonical ? `.${SUPPORTED[canonical].extensions[0]}` : "";
}

export function contentTypeOfExtension(ext: string): string | undefined {
  return BY_EXTENSION.get(ext.toLowerCase());
}
