// The ZIP validation library of private apps (pure, on temp files): safe
// unzip (no path traversal, no zip bombs, size limits) and the package rules.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectPackage } from "../src/custom-apps/package/inspect-package.js";
import { packageManifest } from "../src/custom-apps/package/package-manifest.js";
import { PackageError } from "../src/custom-apps/package/package-error.js";
import { walkZip } from "../src/custom-apps/package/zip-walk.js";
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from "../src/custom-apps/package/zip-limits.js";
import { entryPathToKey, keyToEntryPath } from "../src/custom-apps/package/blob-key-encoding.js";
import { bundleZip, handMadeZip, widgetZip, zipOf } from "./support/custom-apps-zip.js";

let dir: string;
let n = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "custom-app-zip-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function onDisk(zip: Buffer): Promise<string> {
  const path = join(dir, `p${n++}.zip`);
  await writeFile(path, zip);
  return path;
}

async function problemOf(zip: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS, kind: "WIDGET" | "HTML_BUNDLE" = "HTML_BUNDLE") {
  try {
    const inspection = await inspectPackage(await onDisk(zip), limits);
    packageManifest(kind, inspection, { appNumericId: 1, name: "x", revision: 1 });
  } catch (e) {
    if (e instanceof PackageError) return e.problem;
    throw e;
  }
  return "accepted";
}

/** Reads every entry fully, as extraction does. */
async function inflateAll(zip: Buffer, limits: ZipLimits): Promise<number> {
  let total = 0;
  await walkZip(await onDisk(zip), limits, async (_entry, open) => {
    for await (const chunk of (await open()) as AsyncIterable<Buffer>) total += chunk.length;
  });
  return total;
}

describe("safe unzip: entry names", () => {
  it("a ZIP with '../' entries is refused (path traversal)", async () => {
    expect(await problemOf(handMadeZip([{ name: "index.html", data: "x" }, { name: "../evil.sh", data: "rm -rf /" }]))).toBe("unsafePath");
    expect(await problemOf(handMadeZip([{ name: "index.html", data: "x" }, { name: "a/../../evil", data: "x" }]))).toBe("unsafePath");
  });

  it("absolute paths, drive letters, backslashes and '.' segments are refused", async () => {
    for (const name of ["/etc/passwd", "C:/windows/x.dll", "c:evil", "a\\..\\b", "./index.html", "a//b"]) {
      expect(await problemOf(handMadeZip([{ name: "index.html", data: "x" }, { name, data: "x" }])), name).toBe("unsafePath");
    }
  });

  it("symlink entries and duplicate names are refused", async () => {
    expect(await problemOf(handMadeZip([{ name: "index.html", data: "x" }, { name: "link", data: "/etc/passwd", unixMode: 0o120777 }]))).toBe("unsupportedEntry");
    expect(await problemOf(handMadeZip([{ name: "index.html", data: "x" }, { name: "index.html", data: "y" }]))).toBe("duplicateEntry");
  });

  it("bytes that are not a ZIP are refused", async () => {
    expect(await problemOf(Buffer.from("definitely not a zip archive"))).toBe("notZip");
  });

  it("ordinary names map to blob keys unchanged; others are escaped reversibly", () => {
    expect(entryPathToKey("js/app.min.js")).toBe("js/app.min.js");
    expect(entryPathToKey("my file.png")).toBe("my=20file.png");
    expect(entryPathToKey(".hidden/a=b")).toBe("=2Ehidden/a=3Db");
  });

  it("a key reads back as its entry path (the served URL names the entry, custom-app-files.ts maps it to the key again)", () => {
    for (const path of ["js/app.min.js", "my file.png", ".hidden/a=b", "ü/日本語 😀.txt", "100%/=2E", "a/.b/..c"]) expect(keyToEntryPath(entryPathToKey(path)), path).toBe(path);
  });
});

describe("safe unzip: zip bombs and size limits", () => {
  const small: ZipLimits = { ...DEFAULT_ZIP_LIMITS, maxEntries: 3, maxTotalUncompressedBytes: 64 * 1024, ratioFloorBytes: 16 * 1024, maxCompressionRatio: 20 };

  it("more entries than allowed are refused before anything is inflated", async () => {
    expect(await problemOf(await zipOf({ "index.html": "x", a: "1", b: "2", c: "3" }), small)).toBe("tooManyEntries");
  });

  it("a declared total above the limit is refused from the central directory", async () => {
    expect(await problemOf(await zipOf({ "index.html": "x", big: Buffer.alloc(70 * 1024, 1) }, { compress: false }), small)).toBe("tooLarge");
  });

  it("a highly compressed entry (zip bomb) is refused by its ratio", async () => {
    // 1 MiB of zeros deflates to about 1 KiB: ratio ~1000 > 20.
    expect(await problemOf(await zipOf({ "index.html": "x", bomb: Buffer.alloc(1024 * 1024) }), { ...small, maxTotalUncompressedBytes: 10 * 1024 * 1024 })).toBe("compressionRatio");
  });

  it("an entry whose header lies about its size is stopped while inflating", async () => {
    // Declares 10 bytes, inflates to 1 MiB: the declared checks pass, counting real bytes does not.
    const liar = handMadeZip([{ name: "index.html", data: "x" }, { name: "liar.bin", data: Buffer.alloc(1024 * 1024), deflate: true, declaredSize: 10 }]);
    await expect(inflateAll(liar, { ...small, maxTotalUncompressedBytes: 10 * 1024 * 1024 })).rejects.toBeInstanceOf(PackageError);
    await expect(inflateAll(liar, { ...small, maxCompressionRatio: 10_000, maxTotalUncompressedBytes: 100 * 1024 })).rejects.toMatchObject({ problem: expect.stringMatching(/tooLarge|notZip/) });
  });

  it("an honest package inflates completely within the limits", async () => {
    expect(await inflateAll(await bundleZip(), DEFAULT_ZIP_LIMITS)).toBe("<html>bundle</html>".length + "console.log(1)".length);
  });
});

describe("package rules", () => {
  it("'WIDGET ZIP contains config.json with non-empty name and version ... these set package identity and version'", async () => {
    const inspection = await inspectPackage(await onDisk(await widgetZip({ name: "clock", version: "2.1.0", entryPoint: "index.html" })), DEFAULT_ZIP_LIMITS);
    const manifest = packageManifest("WIDGET", inspection, { appNumericId: 7, name: "Clock", revision: 1 });
    expect(manifest).toMatchObject({ appId: "clock", version: "2.1.0", entryPoint: "index.html", iconPath: "icon.png" });
    expect(manifest.config).toMatchObject({ name: "clock", version: "2.1.0" });
  });

  it("WIDGET without config.json, or with blank / too long / non-string name or version, is invalid", async () => {
    expect(await problemOf(await bundleZip(), DEFAULT_ZIP_LIMITS, "WIDGET")).toBe("missingConfig");
    expect(await problemOf(await zipOf({ "config.json": "{not json" }), DEFAULT_ZIP_LIMITS, "WIDGET")).toBe("invalidConfig");
    expect(await problemOf(await zipOf({ "config.json": "[1]" }), DEFAULT_ZIP_LIMITS, "WIDGET")).toBe("invalidConfig");
    for (const config of [{ name: "", version: "1" }, { name: "a", version: " " }, { name: "a" }, { name: "a", version: 1 }, { name: "x".repeat(256), version: "1" }, { name: "a", version: "v".repeat(256) }]) {
      expect(await problemOf(await widgetZip(config), DEFAULT_ZIP_LIMITS, "WIDGET"), JSON.stringify(config).slice(0, 40)).toBe("invalidConfig");
    }
  });

  it("'Widget package name and version | 1 to 255 characters each': the bounds are accepted", async () => {
    expect(await problemOf(await widgetZip({ name: "n".repeat(255), version: "1" }), DEFAULT_ZIP_LIMITS, "WIDGET")).toBe("accepted");
    expect(await problemOf(await widgetZip({ name: "é".repeat(255), version: "v" }), DEFAULT_ZIP_LIMITS, "WIDGET")).toBe("accepted");
  });

  it("'HTML_BUNDLE ZIP contains index.html at its root; the server creates the manifest and identity'", async () => {
    expect(await problemOf(await zipOf({ "site/index.html": "x" }))).toBe("missingIndexHtml");
    const inspection = await inspectPackage(await onDisk(await bundleZip({ "icon.svg": "<svg/>" })), DEFAULT_ZIP_LIMITS);
    const manifest = packageManifest("HTML_BUNDLE", inspection, { appNumericId: 42, name: "Lobby", revision: 3 });
    expect(manifest).toMatchObject({ appId: "html-bundle-42", version: "3", entryPoint: "index.html", iconPath: "icon.svg" });
    expect(manifest.config).toMatchObject({ name: "Lobby", appId: "html-bundle-42", type: "HTML_BUNDLE", entryPoint: "index.html", files: 3 });
  });
});
