// Where media keeps its bytes in the blob store. The extension carries the
// content type, so a download can answer with it without a database lookup.
import { randomBytes } from "node:crypto";
import { extensionOf, contentTypeOfExtension } from "../uploads/supported-types.js";

export function fileBlobKey(customerId: number, fileId: string, contentType: string): string {
  return `files/${customerId}/${fileId}${extensionOf(contentType)}`;
}

/** A new key per thumbnail upload: URLs of an older thumbnail never serve the newer bytes. */
export function thumbnailBlobKey(customerId: number, fileId: string, contentType: string): string {
  return `thumbnails/${customerId}/${fileId}-${randomBytes(4).toString("hex")}${extensionOf(contentType)}`;
}

export function contentTypeOfKey(key: string): string {
  const dot = key.lastIndexOf(".");
  return (dot > key.lastIndexOf("/") && contentTypeOfExtension(key.slice(dot + 1))) || "application/octet-stream";
}
