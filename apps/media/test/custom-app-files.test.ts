// Private-app files over HTTP through the gateway. Document 1, "Private app
// (customer-owned)": "appRootPath, entryPoint, iconPath | string | use these
// returned values instead of building storage URLs". They are URLs that load
// with no bearer token (an iframe, a player): an HTML bundle's entry point,
// and its relative resources from the same prefix, with Range/ETag, their
// content types and nosniff; nothing outside the app's current package.
import { request } from "node:http";
import { access } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { presignedPrefixToken, UrlSigner } from "@signage/storage";
import { bundleZip, widgetZip, zipOf } from "./support/custom-apps-zip.js";
import { packageForm, SIGNING_SECRET, startCustomAppsPlatform, type CustomAppsPlatform } from "./support/custom-apps-platform.js";

const BASE = "/api/customApp/myApps";
const SEED = "appRootPath, entryPoint, iconPath: 'use these returned values instead of building storage URLs'";
let env: CustomAppsPlatform;
let owner: { customerId: number; token: string };

beforeAll(async () => {
  env = await startCustomAppsPlatform();
  const t = await env.tenant();
  owner = { customerId: t.customerId, token: t.owner.token };
}, 60_000);
afterAll(() => env?.close());

const http = () => env.platform.http;
const knex = () => env.platform.knexOf("media");

const INDEX = "<!doctype html><html><head><link rel=stylesheet href=css/app.css></head><body><img src=img/logo.png><script src=js/app.js></script></body></html>";
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const SITE: Record<string, string | Buffer> = {
  "index.html": INDEX,
  "css/app.css": "body{color:red}",
  "img/logo.png": PNG,
  "img/pic.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
  "js/app.js": "console.log('app')",
  "data/config.json": '{"a":1}',
  "fonts/f.woff2": Buffer.from("wOF2fake"),
  "photo.JPG": Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  "notes.unknownext": "x",
  "my file ä.txt": "spaced",
};

async function appWith(type: "WIDGET" | "HTML_BUNDLE", zip: Buffer): Promise<Record<string, any>> {
  const created = await http().post(BASE, { token: owner.token, body: { name: `files ${type} ${Math.random()}`, type } });
  expect(created.status, created.text).toBe(200);
  return upload(created.body.id, zip);
}

async function upload(id: number, zip: Buffer): Promise<Record<string, any>> {
  const res = await http().post(`${BASE}/${id}/upload`, { token: owner.token, body: packageForm(zip) });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json(): any;
}

/** A request with the path exactly as given (fetch would resolve `..` before sending), and no bearer token. */
function raw(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  const url = new URL(env.platform.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, body, json: () => JSON.parse(body.toString("utf8")) });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** A root-relative URL's path (PUBLIC_BASE_URL is empty here, so the URLs are root-relative). */
const pathOf = (url: string) => new URL(url, env.platform.url).pathname;
const tokenOf = (rootUrl: string) => pathOf(rootUrl).split("/")[4];
const rowOf = (id: number) => knex()("custom_app").where({ id }).first();
const stored = (key: string) => access(join(env.blobRoot, key)).then(() => true, () => false);

describe(`${SEED}: an HTML bundle served at its URLs`, () => {
  let app: Record<string, any>;
  beforeAll(async () => {
    app = await appWith("HTML_BUNDLE", await zipOf(SITE));
  });

  it("appRootPath is a files URL ending with '/'; entryPoint and resourceList are relative to it", () => {
    expect(app.appRootPath).toMatch(/^\/api\/customApp\/files\/[A-Za-z0-9_-]+\.\d+\.[A-Za-z0-9_-]+\/$/);
    expect(app.entryPoint).toBe(`${app.appRootPath}index.html`);
    expect(app.iconPath).toBeUndefined();
    expect([...app.resourceList].sort()).toContain("my%20file%20%C3%A4.txt");
    expect(app.resourceList).toContain("css/app.css");
  });

  it("GET entryPoint without a bearer token: 200 text/html, the index bytes, nosniff, sandboxed", async () => {
    const res = await raw(pathOf(app.entryPoint));
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.body.toString("utf8")).toBe(INDEX);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["etag"]).toMatch(/^"/);
    expect(res.headers["accept-ranges"]).toBe("bytes");
    // The page runs its own script (no `default-src 'none'`), in an opaque origin.
    expect(res.headers["content-security-policy"]).toBe("sandbox allow-scripts allow-forms allow-popups allow-modals");
  });

  it("relative resources load from appRootPath + '<path in the package>', each with its content type", async () => {
    const cases: [string, string, string | Buffer][] = [
      ["css/app.css", "text/css", SITE["css/app.css"]],
      ["img/logo.png", "image/png", PNG],
      ["img/pic.svg", "image/svg+xml", SITE["img/pic.svg"]],
      ["js/app.js", "text/javascript", SITE["js/app.js"]],
      ["data/config.json", "application/json", SITE["data/config.json"]],
      ["fonts/f.woff2", "font/woff2", SITE["fonts/f.woff2"]],
      ["photo.JPG", "image/jpeg", SITE["photo.JPG"]],
      ["notes.unknownext", "application/octet-stream", "x"],
      ["my%20file%20%C3%A4.txt", "text/plain", "spaced"],
    ];
    for (const [relative, type, bytes] of cases) {
      const res = await raw(pathOf(app.appRootPath) + relative);
      expect(res.status, relative).toBe(200);
      expect(String(res.headers["content-type"]).split(";")[0], relative).toBe(type);
      expect(res.headers["x-content-type-options"], relative).toBe("nosniff");
      expect(res.body.equals(Buffer.from(bytes)), relative).toBe(true);
    }
    // Every resourceList entry is such a path.
    for (const relative of app.resourceList) expect((await raw(pathOf(app.appRootPath) + relative, {}, "HEAD")).status, relative).toBe(200);
  });

  it("Range -> 206 with Content-Range; If-None-Match with the ETag -> 304; HEAD has the length and no body", async () => {
    const url = pathOf(app.appRootPath) + "css/app.css";
    const part = await raw(url, { range: "bytes=0-3" });
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 0-3/${(SITE["css/app.css"] as string).length}`);
    expect(part.body.toString()).toBe("body");
    const whole = await raw(url);
    const again = await raw(url, { "if-none-match": String(whole.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await raw(url, {}, "HEAD");
    expect([head.status, head.headers["content-length"], head.body.length]).toEqual([200, String((SITE["css/app.css"] as string).length), 0]);
  });

  it("the list and a re-read give the same URLs (stable within the window, so caches work), a select of entryPoint alone too", async () => {
    const list = await http().get(BASE, { token: owner.token, query: { search: `id=${app.id}` } });
    expect(list.status, list.text).toBe(200);
    expect(list.body.content[0]).toMatchObject({ appRootPath: app.appRootPath, entryPoint: app.entryPoint });
    const only = await http().get(BASE, { token: owner.token, query: { search: `id=${app.id}`, select: "id,entryPoint" } });
    expect(only.body.content[0].entryPoint).toBe(app.entryPoint);
    expect((await raw(pathOf(only.body.content[0].entryPoint))).status).toBe(200);
  });

  it("never another package's bytes: '..', '.', empty segments, backslashes (raw or percent-encoded) -> 400; other keys, directories -> 404", async () => {
    const other = await appWith("HTML_BUNDLE", await bundleZip({ "secret.txt": "other package" }));
    const otherRow = await rowOf(other.id);
    const root = pathOf(app.appRootPath);
    const otherToken = tokenOf(other.appRootPath);
    const refused = [
      `../${otherToken}/index.html`,
      `css/../../${otherToken}/secret.txt`,
      `%2E%2E/${otherToken}/secret.txt`,
      `..%2F${otherToken}%2Fsecret.txt`,
      `.%2Findex.html`,
      `./index.html`,
      `css//app.css`,
      `%2Fetc/passwd`,
      `%5C..%5Csecret.txt`,
      `index.html%00`,
    ];
    for (const path of refused) {
      const res = await raw(root + path);
      expect([res.status, res.json().key], path).toEqual([400, "customApp.error.invalidFilePath"]);
    }
    const missing = [
      "secret.txt",
      encodeURIComponent(`${otherRow.app_root_path}secret.txt`),
      `${otherRow.app_root_path}secret.txt`,
      "css",
      "css/",
      "%252E%252E/secret.txt",
      "index.html.",
      "INDEX.HTML",
    ];
    for (const path of missing) {
      const res = await raw(root + path);
      expect([res.status, res.json().key], path).toEqual([404, "storage.error.blobNotFound"]);
    }
  });

  it("a tampered token -> 403 storage.error.invalidSignature (signature, expiry or prefix changed; garbage)", async () => {
    const other = await appWith("HTML_BUNDLE", await bundleZip());
    const [prefix, expires, signature] = tokenOf(app.appRootPath).split(".");
    const [otherPrefix] = tokenOf(other.appRootPath).split(".");
    const flipped = signature.slice(0, -1) + (signature.endsWith("A") ? "B" : "A");
    for (const token of [`${prefix}.${expires}.${flipped}`, `${prefix}.${Number(expires) + 1}.${signature}`, `${otherPrefix}.${expires}.${signature}`, "garbage", `${prefix}.${expires}`, `${prefix}.x.${signature}`]) {
      const res = await raw(`/api/customApp/files/${token}/index.html`);
      expect([res.status, res.json().key], token).toEqual([403, "storage.error.invalidSignature"]);
    }
  });

  it("only the token as issued opens the files: RFC 4648 §3.3 'Implementations MUST reject the encoded data if it contains characters outside the base alphabet' (no `=`, `+`, `/` or space aliases of a signed root) -> 403", async () => {
    const [prefix, expires, signature] = tokenOf(app.appRootPath).split(".");
    // The base64 alphabet's `+` and `/` for base64url's `-` and `_` (when the root's encoding has any).
    const base64 = prefix.replace(/-/g, "+").replace(/_/g, "/");
    const aliases = [`${prefix}=`, `${prefix}==`, `${prefix}%20`, `%20${prefix}`, `${prefix.slice(0, 8)}%0A${prefix.slice(8)}`, ...(base64 === prefix ? [] : [encodeURIComponent(base64)])];
    for (const alias of aliases) {
      const res = await raw(`/api/customApp/files/${alias}.${expires}.${signature}/index.html`);
      expect([res.status, res.json().key], alias).toEqual([403, "storage.error.invalidSignature"]);
    }
    expect((await raw(`/api/customApp/files/${prefix}.${expires}.${signature}/index.html`)).status).toBe(200);
  });

  it("an expired token -> 403 storage.error.urlExpired", async () => {
    const row = await rowOf(app.id);
    const signer = new UrlSigner(SIGNING_SECRET);
    const expired = presignedPrefixToken(signer, row.app_root_path, Date.now() - 1000);
    const res = await raw(`/api/customApp/files/${expired}/index.html`);
    expect([res.status, res.json().key]).toEqual([403, "storage.error.urlExpired"]);
    // The same root signed into the future serves: only the expiry differs.
    const fresh = presignedPrefixToken(signer, row.app_root_path, Date.now() + 60_000);
    expect((await raw(`/api/customApp/files/${fresh}/index.html`)).status).toBe(200);
  });

  it("a restricted customer's files are refused (403), as its downloads are", async () => {
    await knex()("tenant").where({ customer_id: owner.customerId }).update({ restricted: true });
    try {
      const res = await raw(pathOf(app.entryPoint));
      expect([res.status, res.json().key]).toEqual([403, "auth.error.customerRestricted"]);
    } finally {
      await knex()("tenant").where({ customer_id: owner.customerId }).update({ restricted: false });
    }
    expect((await raw(pathOf(app.entryPoint))).status).toBe(200);
  });
});

describe(`${SEED}: only the app's current package`, () => {
  it("after a new package upload the old appRootPath -> 404 and the new one works", async () => {
    const first = await appWith("HTML_BUNDLE", await bundleZip({ "v.txt": "one" }));
    const second = await upload(first.id, await bundleZip({ "v.txt": "two" }));
    expect(second.appRootPath).not.toBe(first.appRootPath);
    const old = await raw(pathOf(first.appRootPath) + "v.txt");
    expect([old.status, old.json().key]).toEqual([404, "storage.error.blobNotFound"]);
    expect((await raw(pathOf(first.entryPoint))).status).toBe(404);
    const now = await raw(pathOf(second.appRootPath) + "v.txt");
    expect([now.status, now.body.toString()]).toEqual([200, "two"]);
  });

  it("a replaced package stops serving at the commit, while its bytes are still stored", async () => {
    const app = await appWith("HTML_BUNDLE", await bundleZip());
    const row = await rowOf(app.id);
    // What the replace's transaction does to the row before the old blobs are removed after it.
    await knex()("custom_app").where({ id: app.id }).update({ app_root_path: `custom-apps/${owner.customerId}/${app.id}/other/files/` });
    expect(await stored(`${row.app_root_path}index.html`)).toBe(true);
    expect((await raw(pathOf(app.entryPoint))).status).toBe(404);
    await knex()("custom_app").where({ id: app.id }).update({ app_root_path: row.app_root_path });
    expect((await raw(pathOf(app.entryPoint))).status).toBe(200);
  });

  it("after the app is deleted its URLs -> 404", async () => {
    const app = await appWith("HTML_BUNDLE", await bundleZip());
    expect((await raw(pathOf(app.entryPoint))).status).toBe(200);
    expect((await http().delete(`${BASE}/${app.id}`, { token: owner.token })).status).toBeLessThan(300);
    const res = await raw(pathOf(app.entryPoint));
    expect([res.status, res.json().key]).toEqual([404, "storage.error.blobNotFound"]);
  });

  it("WIDGET: iconPath and entryPoint load (image/png, text/html)", async () => {
    const app = await appWith("WIDGET", await widgetZip({ name: `icon-widget-${Date.now()}`, version: "1" }));
    expect(app.iconPath).toBe(`${app.appRootPath}icon.png`);
    const icon = await raw(pathOf(app.iconPath));
    expect([icon.status, icon.headers["content-type"]]).toEqual([200, "image/png"]);
    expect(icon.body.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe(true);
    const page = await raw(pathOf(app.entryPoint));
    expect([page.status, page.body.toString()]).toEqual([200, "<html>clock</html>"]);
  });
});
