// The `type` filter of the file list: the kind of a file (document 1
// "Supported file kinds"), derived once from its content type at insert.
import type { FileKind } from "@signage/runtime";

const BY_TYPE: Record<string, FileKind> = {
  "application/pdf": "DOCUMENT",
  "application/json": "DATA",
  "application/font-woff": "FONT",
  "application/font-woff2": "FONT",
  "application/x-font-ttf": "FONT",
  "application/x-font-otf": "FONT",
  "application/vnd.ms-fontobject": "FONT",
};

export function fileKindOf(contentType: string): FileKind {
  const type = contentType.split(";")[0].trim().toLowerCase();
  if (BY_TYPE[type]) return BY_TYPE[type];
  const major = type.split("/")[0];
  if (major === "image") return "IMAGE";
  if (major === "video") return "VIDEO";
  if (major === "audio") return "AUDIO";
  if (major === "font") return "FONT";
  return "OTHER";
}
