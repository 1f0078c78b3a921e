// Document 1 "Supported file kinds": Images PNG, JPG, JPEG, GIF, SVG, WebP;
// Videos MP4, WebM, MOV; Audio MP3, WAV, OGG; Fonts TTF, OTF, WOFF, WOFF2;
// Documents PDF; Data JSON. Content types are the client's ("detected by the
// client; the server validates"): anything outside this table is refused (415).
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";

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

function extensionOfName(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot >= 0 ? filename.slice(dot + 1).toLowerCase() : "";
}

export function supportedContentTypes(): string[] {
  return Object.keys(SUPPORTED);
}

export function unsupportedMediaType(contentType: string, filename?: string) {
  return serviceError(Code.InvalidArgument, "media.error.unsupportedMediaType", `Unsupported content type '${contentType || "(none)"}'${filename ? ` for '${filename}'` : ""}; supported kinds: images, videos, audio, fonts, PDF, JSON`, {
    contentType,
    ...(filename ? { filename } : {}),
    supported: supportedContentTypes(),
  });
}

/**
 * The canonical content type of an upload, or 415. A generic type
 * (application/octet-stream, or none) is read from the file name's extension.
 */
export function validateContentType(declared: string | undefined, filename = ""): string {
  const type = bare(declared);
  const canonical = GENERIC.has(type) ? BY_EXTENSION.get(extensionOfName(filename)) : CANONICAL.get(type);
  if (!canonical) throw unsupportedMediaType(type, filename || undefined);
  return canonical;
}

/** ".png" for image/png; "" for types outside the table (thumbnails may be any image/*). */
export function extensionOf(contentType: string): string {
  const canonical = CANONICAL.get(bare(contentType));
  return canonical ? `.${SUPPORTED[canonical].extensions[0]}` : "";
}

export function contentTypeOfExtension(ext: string): string | undefined {
  return BY_EXTENSION.get(ext.toLowerCase());
}
