// Where a private app's package lives in the blob store. Every upload gets a
// fresh folder, so a replace never overwrites what the current row points at:
//   custom-apps/<customerId>/<appId>/<uploadId>/package.zip   the ZIP as uploaded
//   custom-apps/<customerId>/<appId>/<uploadId>/files/<path>  the unpacked files
// `appRootPath` is the `files/` prefix; `entryPoint`, `iconPath` are full keys.
import { entryPathToKey } from "./package/blob-key-encoding.js";

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
