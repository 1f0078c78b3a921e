// Private apps over HTTP through the gateway: review findings on the package
// rules of document 1, "Errors": "Private app name blank or invalid; invalid
// package content | HTTP 400" (bad input is a 4xx, never a 500, and a refused
// upload writes nothing).
//  - entries no unpacked tree can hold ("a" as a file and "a/b") were a 500
//    (the blob store could not create "a/" under a file);
//  - a config.json nested thousands of levels deep was a 500 (stack overflow
//    while storing / rendering `config`);
//  - an entry whose bytes fail its CRC-32 was accepted and served;
//  - an entry whose local header names another path ("../x") than the central
//    directory was accepted and handed back as uploaded by the download.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handMadeZip, widgetZip, zipOf, type HandEntry } from "./support/custom-apps-zip.js";
import { packageForm, startCustomAppsPlatform, type CustomAppsPlatform } from "./support/custom-apps-platform.js";

const BASE = "/api/customApp/myApps";
let env: CustomAppsPlatform;
let A: { customerId: number; token: string };

beforeAll(async () => {
  env = await startCustomAppsPlatform();
  const a = await env.tenant();
  A = { customerId: a.customerId, token: a.owner.token };
}, 60_000);
afterAll(() => env?.close());

const http = () => env.platform.http;

async function create(name: string): Promise<{ id: number }> {
  const res = await http().post(BASE, { token: A.token, body: { name } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

const upload = (id: number, zip: Buffer) => http().post(`${BASE}/${id}/upload`, { token: A.token, body: packageForm(zip) });
const appRow = (id: number) => env.platform.knexOf("media")("custom_app").where({ id }).first();
const intentsUnder = (id: number) => env.platform.knexOf("media")("blob_intent").where("key", "like", `custom-apps/${A.customerId}/${id}/%`).select("key");

/** Every stored file (not folder) below the app's package prefix, as relative paths. */
async function filesUnder(id: number): Promise<string[]> {
  const dir = join(env.blobRoot, "custom-apps", String(A.customerId), String(id));
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? e.path, e.name).slice(dir.length + 1)).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
}

const config = (name: string) => ({ name: "config.json", data: JSON.stringify({ name, version: "1" }) });
const index = { name: "index.html", data: "<html/>" };

/** A packaged app: its row and stored files, to compare after refused uploads. */
async function packagedApp(name: string, identity: string) {
  const app = await create(name);
  const first = await upload(app.id, await widgetZip({ name: identity, version: "1" }));
  expect(first.status, first.text).toBe(200);
  return { id: app.id, row: await appRow(app.id), files: await filesUnder(app.id) };
}

/** The refused upload changed nothing: same row, same files, no blob intent left. */
async function expectUnchanged(app: { id: number; row: unknown; files: string[] }) {
  expect(await appRow(app.id)).toEqual(app.row);
  expect(await filesUnder(app.id)).toEqual(app.files);
  expect(await intentsUnder(app.id)).toEqual([]);
}

describe("'Private app name blank or invalid; invalid package content | HTTP 400': a ZIP no tree can unpack", { timeout: 60_000 }, () => {
  it("a file 'a' and a file 'a/b' (either order), or a folder 'a/' and a file 'a': 400 invalidPackage duplicateEntry, never a 500; nothing written", async () => {
    const app = await packagedApp("Clashing paths", "clash");
    const cases: HandEntry[][] = [
      [{ name: "js", data: "x" }, { name: "js/app.js", data: "y" }],
      [{ name: "js/app.js", data: "y" }, { name: "js", data: "x" }],
      [{ name: "assets/img/a.png", data: "y" }, { name: "assets/img", data: "x" }],
      [{ name: "js/" }, { name: "js", data: "x" }],
    ];
    for (const extra of cases) {
      const res = await upload(app.id, handMadeZip([config("clash"), index, ...extra]));
      const label = extra.map((e) => e.name).join(" + ");
      expect(res.status, `${label}: ${res.text}`).toBe(400);
      expect([res.body.key, res.body.details?.reason], label).toEqual(["customApp.error.invalidPackage", "duplicateEntry"]);
    }
    await expectUnchanged(app);
    // A folder entry for a folder that also holds files is ordinary.
    const ok = await upload(app.id, handMadeZip([config("clash"), index, { name: "js/" }, { name: "js/app.js", data: "y" }]));
    expect(ok.status, ok.text).toBe(200);
  });
});

describe("'Private app name blank or invalid; invalid package content | HTTP 400': config.json nesting", { timeout: 60_000 }, () => {
  it("a config.json nested thousands of levels deep is 400 invalidConfig, never a 500; 64 levels are accepted, 65 refused", async () => {
    const app = await packagedApp("Deep config", "deep");
    const nested = (levels: number) => `{"name":"deep","version":"2","x":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}}`;
    for (const levels of [5_000, 200_000, 65]) {
      const res = await upload(app.id, await zipOf({ "config.json": nested(levels), "index.html": "<html/>" }));
      expect(res.status, `${levels}: ${res.text.slice(0, 300)}`).toBe(400);
      expect([res.body.key, res.body.details?.reason, res.body.details?.maxDepth], String(levels)).toEqual(["customApp.error.invalidPackage", "invalidConfig", 64]);
    }
    await expectUnchanged(app);
    const ok = await upload(app.id, await zipOf({ "config.json": nested(64), "index.html": "<html/>" }));
    expect(ok.status, ok.text.slice(0, 300)).toBe(200);
    expect(ok.body.version).toBe("2");
  });
});

describe("'Private app name blank or invalid; invalid package content | HTTP 400': corrupt or inconsistent entries", { timeout: 60_000 }, () => {
  it("an entry whose bytes fail its CRC-32 (config.json, or a file only unpacked later) is 400 invalidPackage; nothing written, the previous package stays", async () => {
    const app = await packagedApp("Corrupt entry", "crc");
    const cases: [string, HandEntry[]][] = [
      ["config.json", [{ ...config("crc"), crc: 0x1234 }, index]],
      ["index.html", [config("crc"), { ...index, crc: 0x1234 }]],
    ];
    for (const [entry, entries] of cases) {
      const res = await upload(app.id, handMadeZip(entries));
      expect(res.status, `${entry}: ${res.text}`).toBe(400);
      expect([res.body.key, res.body.details?.reason, res.body.details?.entry], entry).toEqual(["customApp.error.invalidPackage", "notZip", entry]);
      expect(res.body.message).toContain("CRC-32");
    }
    await expectUnchanged(app);
    // The same bytes with the right checksums are a valid package.
    const ok = await upload(app.id, handMadeZip([config("crc"), index]));
    expect(ok.status, ok.text).toBe(200);
  });

  it("an entry whose local header names another path than the central directory ('../escaped.html') is 400 unsafePath; the ZIP is not kept for download", async () => {
    const app = await packagedApp("Two names", "two-names");
    const evil = handMadeZip([config("two-names"), index, { name: "page.html", localName: "../escaped.html", data: "x" }]);
    const res = await upload(app.id, evil);
    expect(res.status, res.text).toBe(400);
    expect([res.body.key, res.body.details?.reason, res.body.details?.entry]).toEqual(["customApp.error.invalidPackage", "unsafePath", "page.html"]);
    await expectUnchanged(app);
    const download = await fetch(`${env.platform.url}${BASE}/${app.id}/download`, { headers: { authorization: `Bearer ${A.token}` } });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).includes("escaped")).toBe(false);
  });
});
