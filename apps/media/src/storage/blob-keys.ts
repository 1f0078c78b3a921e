// Where media keeps its bytes in the blob store. The extension carries the
// content type, so a download can answer with it without a database lookup.
// A file's type is always one of the table's (supported-types.ts); a thumbnail
// may be any image/* ("body image/* binary"), so a thumbnail of a type outside
// the table carries its subtype instead, spelled in key characters.
import { randomBytes } from "node:crypto";
import { extensionOf, contentTypeOfExtension, isImageSubtype } from "../uploads/supported-types.js";

const THUMBNAILS = "thumbnails/";
const UNKNOWN = "application/octet-stream";

export function fileBlobKey(customerId: number, fileId: string, contentType: string): string {
  return `files/${customerId}/${fileId}${extensionOf(contentType)}`;
}

/**
 * An image subtype as a key extension: key characters (blob-store.ts assertValidKey) stay,
 * any other (`.`, `+`, ...) is written `=xx` in hex, so the extension has no dot and reads back
 * exactly. A subtype spelled like a table extension (image/mp4, image/svg) has its first
 * character escaped too, or it would read back as the table's type.
 */
function subtypeExtension(subtype: string): string {
  const escape = (c: string) => `=${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
  const ext = subtype.replace(/[^a-z0-9_-]/g, escape);
  return contentTypeOfExtension(ext) ? escape(ext[0]) + ext.slice(1) : ext;
}

function subtypeOfExtension(ext: string): string | undefined {
  const subtype = ext.replace(/=([0-9a-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return isImageSubtype(subtype) ? subtype : undefined;
}

/** A new key per thumbnail upload: URLs of an older thumbnail never serve the newer bytes. */
export function thumbnailBlobKey(customerId: number, fileId: string, contentType: string): string {
  const known = extensionOf(contentType);
  const ext = known || (contentType.startsWith("image/") ? `.${subtypeExtension(contentType.slice("image/".length))}` : "");
  return `${THUMBNAILS}${customerId}/${fileId}-${randomBytes(4).toString("hex")}${ext}`;
}

/** Keys written before thumbnails carried their subtype have no extension for it: those stay octet-stream. */
export function contentTypeOfKey(key: string): string {
  const name = key.slice(key.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  if (dot < 0) return UNKNOWN;
  const ext = name.slice(dot + 1);
  const known = contentTypeOfExtension(ext);
  if (known) return known;
  const subtype = key.startsWith(THUMBNAILS) ? subtypeOfExtension(ext) : undefined;
  return subtype ? `image/${subtype}` : UNKNOWN;
}
