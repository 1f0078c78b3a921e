// Package bytes in the blob store: unpack a checked ZIP under a fresh root,
// keep the ZIP itself for download, and delete a package's blobs again.
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

/**
 * Pass 2 over the ZIP: every file streamed into the store (the same guards as
 * pass 1 apply while inflating). On failure the blobs written so far are removed.
 */
export async function storePackage(store: BlobStore, zipPath: string, zipSize: number, location: PackageLocation, limits: ZipLimits): Promise<StoredPackage> {
  const written: string[] = [];
  try {
    await walkZip(zipPath, limits, async (entry, open) => {
      const key = fileKey(location.rootPath, entry.path);
      written.push(key);
      await store.put(key, await open(), { contentType: contentTypeOf(entry.path), maxSize: entry.uncompressedSize });
    });
    written.push(location.packageKey);
    await store.put(location.packageKey, createReadStream(zipPath), { contentType: "application/zip", size: zipSize });
  } catch (e) {
    await deleteBlobs(store, written);
    throw e;
  }
  return { files: written.filter((k) => k !== location.packageKey).map((k) => k.slice(location.rootPath.length)) };
}

/** Idempotent; one failed delete does not stop the others (an orphan is harmless, a half-deleted row is not). */
export async function deleteBlobs(store: BlobStore, keys: readonly string[]): Promise<void> {
  const queue = [...keys];
  const worker = async () => {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) await store.delete(key).catch(() => undefined);
  };
  await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
}

/** Every blob of the package a row points at (ZIP and unpacked files). */
export function packageBlobKeys(row: { package_key: string | null; app_root_path: string | null; resource_list: string[] | null }): string[] {
  if (!row.package_key) return [];
  const root = row.app_root_path ?? "";
  return [row.package_key, ...(row.resource_list ?? []).map((relative) => root + relative)];
}
