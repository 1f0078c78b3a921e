// Document 1, "Private app (customer-owned)": "appRootPath, entryPoint,
// iconPath ... use these returned values instead of building storage URLs".
// The row keeps blob keys (package-keys.ts); a response carries the URLs that
// serve them (custom-app-files.ts), with no bearer token:
//   appRootPath  <PUBLIC_BASE_URL>/api/customApp/files/<token>/
//   entryPoint   <appRootPath><relative path, percent-encoded per segment>
// The token signs the package root and an expiry rounded up to a window (as
// `location` URLs, storage/blob-urls.ts): the URLs stay the same for a while,
// so browsers, players and CDNs can cache the files, and a page's relative
// links (`css/app.css`) resolve under the same signed root.
import { presignedPrefixToken, type UrlSigner } from "@signage/storage";
import type { CustomApp } from "@signage/contracts/signage/media/v1/custom_app_pb";
import { keyToEntryPath } from "./package/blob-key-encoding.js";
import { windowedExpiry } from "../storage/blob-urls.js";

/** Where GetMyAppFile is routed (custom_app.proto). */
export const APP_FILES_PATH = "/api/customApp/files";

export interface AppFileUrlOptions {
  signer: UrlSigner;
  /** "" for root-relative URLs. */
  baseUrl: string;
  windowMs: number;
  now?: () => number;
}

export interface AppFileUrls {
  /** The message with its stored keys replaced by served URLs (fields a `select` left out stay out). */
  complete(app: CustomApp): CustomApp;
}

/** A package root as package-keys.ts makes it: `custom-apps/<customerId>/<appId>/<uploadId>/files/`. */
const PACKAGE_KEY = /^(custom-apps\/(\d{1,15})\/(\d{1,15})\/[A-Za-z0-9_-]+\/files\/)(.*)$/s;

/** A key under a package root: the root, its customer and app, and the rest (a relative key). */
export function splitPackageKey(key: string): { root: string; customerId: number; appId: number; relative: string } | undefined {
  const m = PACKAGE_KEY.exec(key);
  return m ? { root: m[1], customerId: Number(m[2]), appId: Number(m[3]), relative: m[4] } : undefined;
}

/** A relative key ("a/b=20c.js") as the URL path a browser requests for it ("a/b%20c.js"). */
export function relativeUrlOf(relativeKey: string): string {
  return keyToEntryPath(relativeKey).split("/").map(encodeURIComponent).join("/");
}

export function createAppFileUrls(options: AppFileUrlOptions): AppFileUrls {
  const now = options.now ?? Date.now;
  return {
    complete(app) {
      const expiresAt = windowedExpiry(now(), options.windowMs);
      const rootUrl = (root: string) => `${options.baseUrl}${APP_FILES_PATH}/${presignedPrefixToken(options.signer, root, expiresAt)}/`;
      // A key that is not a package's (none is written so) renders the field empty rather than unusable.
      const urlOf = (key: string | undefined) => {
        const parts = key === undefined ? undefined : splitPackageKey(key);
        return parts && rootUrl(parts.root) + relativeUrlOf(parts.relative);
      };
      if (app.appRootPath !== undefined) app.appRootPath = urlOf(app.appRootPath);
      if (app.entryPoint !== undefined) app.entryPoint = urlOf(app.entryPoint);
      if (app.iconPath !== undefined) app.iconPath = urlOf(app.iconPath);
      app.resourceList = app.resourceList.map(relativeUrlOf);
      return app;
    },
  };
}
