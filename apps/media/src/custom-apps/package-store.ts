// Package bytes in the blob store: unpack a checked ZIP under a fresh root and
// keep the ZIP itself for download. The caller covers the package folder with
// a blob intent before writing (package-upload.ts), so a failure or a crash
// midway leaves nothing that intent does not remove.
import { createReadStream } from "node:fs";
import type { BlobStore } from "@signage/storage";
import { contentTypeOf } from "./content-types.js";
import { fileKey, type PackageLocation } from "./package-keys.js";
import { walkZip } from "./package/zip-walk.js";
import type { ZipLimits } from "./package/zip-limits.js";

export interface StoredPackage {
  /** Keys relative to the root, in archive order (the app's `resourceList`). */
  files: string[];
}

/** Pass 2 over the ZIP: every file streamed into the store (the same guards as pass 1 apply while inflating). */
export async function storePackage(store: BlobStore, zipPath: string, zipSize: number, location: PackageLocation, limits: ZipLimits): Promise<StoredPackage> {
  const files: string[] = [];
  await walkZip(zipPath, limits, async (entry, open) => {
    const key = fileKey(location.rootPath, entry.path);
    files.push(key.slice(location.rootPath.length));
    await store.put(key, await open(), { contentType: contentTypeOf(entry.path), maxSize: entry.uncompressedSize });
  });
  await store.put(location.packageKey, createReadStream(zipPath), { contentType: "application/zip", size: zipSize });
  return { files };
}

/** Every blob of the package a row points at (ZIP and unpacked files). */
export function packageBlobKeys(row: { package_key: string | null; app_root_path: string | null; resource_list: string[] | null }): string[] {
  if (!row.package_key) return [];
  const root = row.app_root_path ?? "";
  return [row.package_key, ...(row.resource_list ?? []).map((relative) => root + relative)];
}
