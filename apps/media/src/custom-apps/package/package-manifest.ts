// The package rules of document 1 ("Package rules"), pure:
// "WIDGET ZIP contains `config.json` with non-empty `name` and `version`, each
// at most 255 characters; these set package identity and version. HTML_BUNDLE
// ZIP contains `index.html` at its root; the server creates the manifest and
// identity."
import type { JsonObject } from "@bufbuild/protobuf";
import { PackageError } from "./package-error.js";
import type { PackageInspection } from "./inspect-package.js";

export type CustomAppKind = "WIDGET" | "HTML_BUNDLE";

export const MAX_IDENTITY_LENGTH = 255;
/** The identities the server creates for HTML bundles ("the server creates the manifest and identity"). */
const HTML_BUNDLE_IDENTITY = /^html-bundle-\d+$/;
const ICON_CANDIDATES = ["icon.png", "icon.svg", "icon.jpg", "icon.jpeg", "icon.webp", "icon.gif"];

export interface PackageManifest {
  /** Package identity (unique in the customer's catalog). */
  appId: string;
  version: string;
  /** WIDGET: config.json as uploaded; HTML_BUNDLE: the generated manifest. */
  config: JsonObject;
  /** Relative path of the file to open, when the package has one. */
  entryPoint?: string;
  /** Relative path of the icon, when the package has one. */
  iconPath?: string;
}

export interface BundleFacts {
  /** The app's numeric id: HTML bundles take their identity from it. */
  appNumericId: number;
  name: string;
  /** Upload counter after this upload: the bundle's version. */
  revision: number;
}

function identityString(config: JsonObject, field: "name" | "version"): string {
  const value = config[field];
  // Length in characters (code points), as the document counts them.
  if (typeof value !== "string" || value.trim().length === 0 || [...value].length > MAX_IDENTITY_LENGTH) {
    throw new PackageError("invalidConfig", `config.json needs a non-empty string '${field}' of at most ${MAX_IDENTITY_LENGTH} characters`, { field, maxLength: MAX_IDENTITY_LENGTH });
  }
  return value;
}

/**
 * How deep config.json may nest. It is stored (jsonb) and returned as the app's `config`; a
 * deeper document overflows the stack on the way ("invalid package content -> HTTP 400", never a 500).
 */
export const MAX_CONFIG_DEPTH = 64;

/** Depth of a parsed JSON value (a scalar is 0, `{}` or `[]` is 1), iteratively: no recursion on hostile input. */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    const level = depth + 1;
    if (level > max) max = level;
    if (max > MAX_CONFIG_DEPTH) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, level]);
  }
  return max;
}

function parseConfig(text: string): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    throw new PackageError("invalidConfig", `config.json is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new PackageError("invalidConfig", "config.json must hold a JSON object");
  if (depthOf(parsed) > MAX_CONFIG_DEPTH) {
    throw new PackageError("invalidConfig", `config.json nests more than ${MAX_CONFIG_DEPTH} levels deep`, { maxDepth: MAX_CONFIG_DEPTH });
  }
  return parsed as JsonObject;
}

function packagedFile(files: Set<string>, candidate: unknown): string | undefined {
  if (typeof candidate !== "string") return undefined;
  const path = candidate.replace(/^\.\//, "");
  return files.has(path) ? path : undefined;
}

export function widgetManifest(inspection: PackageInspection): PackageManifest {
  if (inspection.configText === undefined) throw new PackageError("missingConfig", "A WIDGET package needs config.json at its root");
  const config = parseConfig(inspection.configText);
  const appId = identityString(config, "name");
  // A widget must not take an identity the server reserves for an HTML bundle:
  // that bundle's next upload would otherwise be refused with 409 for an identity it did not choose.
  if (HTML_BUNDLE_IDENTITY.test(appId)) {
    throw new PackageError("reservedIdentity", `config.json 'name' '${appId}' is reserved for the server-created identities of HTML bundles`, { field: "name" });
  }
  const version = identityString(config, "version");
  const files = new Set(inspection.files);
  return {
    appId,
    version,
    config,
    entryPoint: packagedFile(files, config.entryPoint) ?? packagedFile(files, config.main) ?? packagedFile(files, "index.html"),
    iconPath: packagedFile(files, config.icon) ?? ICON_CANDIDATES.find((c) => files.has(c)),
  };
}

export function htmlBundleIdentity(appNumericId: number): string {
  return `html-bundle-${appNumericId}`;
}

export function htmlBundleManifest(inspection: PackageInspection, facts: BundleFacts): PackageManifest {
  const files = new Set(inspection.files);
  if (!files.has("index.html")) throw new PackageError("missingIndexHtml", "An HTML_BUNDLE package needs index.html at its root");
  const appId = htmlBundleIdentity(facts.appNumericId);
  const version = String(facts.revision);
  const iconPath = ICON_CANDIDATES.find((c) => files.has(c));
  const config: JsonObject = {
    name: facts.name,
    appId,
    version,
    type: "HTML_BUNDLE",
    entryPoint: "index.html",
    files: inspection.files.length,
    sizeBytes: inspection.uncompressedBytes,
  };
  if (iconPath) config.icon = iconPath;
  return { appId, version, config, entryPoint: "index.html", iconPath };
}

export function packageManifest(kind: CustomAppKind, inspection: PackageInspection, facts: BundleFacts): PackageManifest {
  return kind === "WIDGET" ? widgetManifest(inspection) : htmlBundleManifest(inspection, facts);
}
