// GetMyAppFile: the files of an app's current package at the URLs its
// `appRootPath`, `entryPoint` and `iconPath` name (app-file-urls.ts), with no
// bearer token (an iframe or a player loads them). The token's signature is
// checked before anything else; then the file must be one the app's current
// package lists (which also keeps every request under the signed root: no
// `..`, no directory, no key that package never wrote), the app must still
// exist and its customer be neither deleted nor restricted. Bytes stream as
// `location` downloads do (Range, If-None-Match, ETag: storage/blob-stream.ts).
import type { Knex } from "knex";
import { verifyPresignedPrefixToken, type BlobStore, type UrlSigner } from "@signage/storage";
import type { GetMyAppFileRequest, GetMyAppFileResponse } from "@signage/contracts/signage/media/v1/custom_app_pb";
import { blobNotFound, checkSignature, streamBlob } from "../storage/blob-stream.js";
import { refuseBlockedTenant } from "../storage/tenant-block.js";
import { contentTypeOf } from "./content-types.js";
import { invalidFilePath } from "./custom-app-errors.js";
import { splitPackageKey } from "./app-file-urls.js";
import { entryPathToKey } from "./package/blob-key-encoding.js";
import { checkEntryName } from "./package/entry-name.js";
import { PackageError } from "./package/package-error.js";
import { DEFAULT_ZIP_LIMITS } from "./package/zip-limits.js";

export interface AppFileDeps {
  knex: Knex;
  store: BlobStore;
  signer: UrlSigner;
  now?: () => number;
}

/**
 * An app's page runs its own script, from the API's origin: `sandbox` without `allow-same-origin`
 * gives it an opaque origin, so it cannot read that origin's storage or call the API as it (the
 * gateway's stored-content policy, `default-src 'none'`, would stop the app itself). Fonts and
 * module scripts a sandboxed page loads are CORS requests (Origin: null): `*`, no credentials,
 * serves files anyone holding the URL may read. No Referer: the token stays out of the requests
 * the app makes to other sites.
 */
const APP_FILE_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": "sandbox allow-scripts allow-forms allow-popups allow-modals",
  "access-control-allow-origin": "*",
  "referrer-policy": "no-referrer",
};

/**
 * The relative key of a requested path, stored the way the package's entries were
 * (entryPathToKey); a path no entry could have had is refused as the upload refuses
 * the entry (`..`, `.` or empty segments, backslashes, control characters: 400).
 */
function relativeKeyOf(path: string): string {
  try {
    checkEntryName(path, DEFAULT_ZIP_LIMITS.maxEntryNameLength);
  } catch (e) {
    if (e instanceof PackageError) throw invalidFilePath(String(e.details.detail ?? e.message));
    throw e;
  }
  // A directory ("css/") is no file of the package.
  if (path.endsWith("/")) throw blobNotFound();
  return entryPathToKey(path);
}

/** The app whose current package has this root and lists this file (one primary-key row). */
async function isCurrentFile(knex: Knex, root: string, appId: number, customerId: number, relative: string): Promise<boolean> {
  const row = await knex("custom_app")
    .where({ id: appId, customer_id: customerId, app_root_path: root })
    .whereRaw("resource_list @> ?::jsonb", [JSON.stringify([relative])])
    .first("id");
  return row !== undefined;
}

export async function* serveAppFile(req: GetMyAppFileRequest, deps: AppFileDeps): AsyncGenerator<Partial<GetMyAppFileResponse>> {
  const now = (deps.now ?? Date.now)();
  const { check, prefix, expiresAt } = verifyPresignedPrefixToken(deps.signer, req.token, now);
  checkSignature(check);
  const root = splitPackageKey(prefix);
  // Only package roots are signed into tokens; anything else names no package.
  if (!root || root.relative !== "") throw blobNotFound();
  const relative = relativeKeyOf(req.path);
  // A replaced package or a deleted app stops serving at that commit (the row no longer points at the root).
  const [current] = await Promise.all([isCurrentFile(deps.knex, root.root, root.appId, root.customerId, relative), refuseBlockedTenant(deps.knex, root.customerId, blobNotFound)]);
  if (!current) throw blobNotFound();
  yield* streamBlob(deps.store, root.root + relative, {
    range: req.range,
    ifNoneMatch: req.ifNoneMatch,
    contentType: contentTypeOf(req.path),
    expiresAt,
    now,
    headers: APP_FILE_HEADERS,
  }) as AsyncGenerator<Partial<GetMyAppFileResponse>>;
}
