// Where a private app's package lives in the blob store. Every upload gets a
// fresh folder, so a replace never overwrites what the current row points at:
//   custom-apps/<customerId>/<appId>/<uploadId>/package.zip   the ZIP as uploaded
//   custom-apps/<customerId>/<appId>/<uploadId>/files/<path>  the unpacked files
// The row's `app_root_path` is the `files/` prefix; `entry_point`, `icon_path` are
// full keys. Responses carry the URLs that serve them instead (app-file-urls.ts).
import { entryPathToKey } from "./package/blob-key-encoding.js";
import { PackageError } from "./package/package-error.js";

/** A key segment becomes one file name in the filesystem store (NAME_MAX: 255 bytes). */
export const MAX_KEY_SEGMENT_BYTES = 255;
/** The whole key, in UTF-8 bytes (the S3 object key limit). */
export const MAX_KEY_BYTES = 1024;

export interface PackageLocation {
  /** The upload's own folder (ends with "/"): everything below it is this package's. */
  folder: string;
  packageKey: string;
  /** Ends with "/". */
  rootPath: string;
}

export function packageLocation(customerId: number, appNumericId: number, uploadId: string): PackageLocation {
  const folder = `custom-apps/${customerId}/${appNumericId}/${uploadId}/`;
  return { folder, packageKey: `${folder}package.zip`, rootPath: `${folder}files/` };
}

/** The blob key of a checked entry path under a package root. */
export function fileKey(rootPath: string, entryPath: string): string {
  return rootPath + entryPathToKey(entryPath);
}

/**
 * "invalid package content -> HTTP 400": every file entry must have a blob key the
 * stores accept. Measured on the very keys storePackage writes (fileKey), so the
 * rule and the store cannot drift; checked before anything is written.
 */
export function checkEntryKeys(rootPath: string, entryPaths: readonly string[]): void {
  for (const path of entryPaths) {
    const key = fileKey(rootPath, path);
    const refuse = (detail: string, limit: number) =>
      new PackageError("unsafePath", `Entry name ${JSON.stringify(path)} is too long to store: ${detail}`, { entry: path.slice(0, 300), detail, maxBytes: limit });
    const keyBytes = Buffer.byteLength(key, "utf8");
    for (const segment of key.split("/")) {
      const bytes = Buffer.byteLength(segment, "utf8");
      if (bytes > MAX_KEY_SEGMENT_BYTES) {
        throw refuse(`a path segment is ${bytes} bytes once encoded; at most ${MAX_KEY_SEGMENT_BYTES} bytes per segment are allowed`, MAX_KEY_SEGMENT_BYTES);
      }
    }
    if (keyBytes > MAX_KEY_BYTES) {
      throw refuse(`its storage key is ${keyBytes} bytes once encoded; at most ${MAX_KEY_BYTES} bytes are allowed`, MAX_KEY_BYTES);
    }
  }
}
