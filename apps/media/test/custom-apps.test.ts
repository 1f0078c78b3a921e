// Private apps over HTTP through the gateway: document 1 "Private app
// (customer-owned)", "Private apps (all operations require OWNER; (C) selector
// accepted)", package rules, errors.
import { access } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type HttpClient } from "@signage/testing";
import { bundleZip, handMadeZip, widgetZip, zipOf } from "./support/custom-apps-zip.js";
import { MAX_UPLOAD_BYTES, packageForm, startCustomAppsPlatform, type CustomAppsPlatform } from "./support/custom-apps-platform.js";

const BASE = "/api/customApp/myApps";
let env: CustomAppsPlatform;
let http: HttpClient;
let A: { customerId: number; token: string };
let B: { customerId: number; token: string };

beforeAll(async () => {
  env = await startCustomAppsPlatform();
  http = env.platform.http;
  const a = await env.tenant();
  const b = await env.tenant();
  A = { customerId: a.customerId, token: a.owner.token };
  B = { customerId: b.customerId, token: b.owner.token };
}, 60_000);
afterAll(() => env?.close());

async function create(token: string, body: Record<string, unknown>) {
  const res = await http.post(BASE, { token, body });
  expect(res.status, res.text).toBe(200);
  return res.body as Record<string, any>;
}

const upload = (token: string, id: number, zip: Buffer, contentType?: string) => http.post(`${BASE}/${id}/upload`, { token, body: packageForm(zip, contentType) });
const download = (token: string, id: number) => fetch(`${env.platform.url}${BASE}/${id}/download`, { headers: { authorization: `Bearer ${token}` } });
const exists = (key: string) => access(join(env.blobRoot, key)).then(() => true, () => false);
/** The stored row: responses carry URLs, the row the blob keys behind them. */
const rowOf = (id: number) => env.platform.knexOf("media")("custom_app").where({ id }).first();

describe("create, list, update, delete", () => {
  it("'created: disabled, private, repository updates off, no package'; type WIDGET and widgetCategory CUSTOM_APPS by default", async () => {
    const app = await create(A.token, { name: "Clock", description: "wall clock" });
    expect(app).toMatchObject({ name: "Clock", description: "wall clock", enabled: false, ownershipType: "CUSTOMER", type: "WIDGET", widgetCategory: "CUSTOM_APPS", customerId: A.customerId });
    expect(typeof app.id).toBe("number");
    expect(typeof app.lastUpdated).toBe("number");
    expect(app.appId).toBeUndefined();
    expect(app.appRootPath).toBeUndefined();
    const bundle = await create(A.token, { name: "Lobby", type: "HTML_BUNDLE", widgetCategory: "MEDIA" });
    expect(bundle).toMatchObject({ type: "HTML_BUNDLE", widgetCategory: "MEDIA", enabled: false });
  });

  it("'Private app name blank or invalid -> HTTP 400'", async () => {
    for (const body of [{ name: "" }, { name: "   " }, { description: "no name" }]) {
      const res = await http.post(BASE, { token: A.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.key).toBe("customApp.error.nameRequired");
    }
    const badType = await http.post(BASE, { token: A.token, body: { name: "x", type: "SPREADSHEET" } });
    expect(badType.status).toBe(400);
  });

  it("'all operations require OWNER': a VIEWER (and an EDITOR) is refused on writes and reads", async () => {
    const app = await create(A.token, { name: "Guarded" });
    for (const role of ["VIEWER", "EDITOR"]) {
      const { owner: user } = await env.tenant(role);
      expect((await http.post(BASE, { token: user.token, body: { name: "nope" } })).status, role).toBe(403);
      expect((await http.get(BASE, { token: user.token })).status, role).toBe(403);
    }
    // A VIEWER of tenant A itself.
    const viewer = await createUser(http, env.adminToken, A.customerId, "VIEWER");
    expect((await http.post(BASE, { token: viewer.token, body: { name: "nope" } })).status).toBe(403);
    expect((await http.put(`${BASE}/${app.id}`, { token: viewer.token, body: { name: "renamed" } })).status).toBe(403);
    expect((await http.delete(`${BASE}/${app.id}`, { token: viewer.token })).status).toBe(403);
    expect((await upload(viewer.token, app.id, await widgetZip())).status).toBe(403);
    expect((await download(viewer.token, app.id)).status).toBe(403);
    expect((await http.post(BASE, { body: { name: "anon" } })).status).toBe(401);
  });

  it("'only this customer's apps': a tenant never sees, changes or downloads another tenant's apps", async () => {
    const mine = await create(A.token, { name: "A only" });
    await create(B.token, { name: "B only" });
    const listA = await http.get(BASE, { token: A.token, query: { size: 100 } });
    expect(listA.status).toBe(200);
    expect(listA.body.content.every((a: any) => a.customerId === A.customerId)).toBe(true);
    const listB = await http.get(BASE, { token: B.token, query: { size: 100 } });
    expect(listB.body.content.map((a: any) => a.name)).toContain("B only");
    expect(listB.body.content.map((a: any) => a.name)).not.toContain("A only");
    // The selector naming another tenant does not widen an OWNER's scope.
    const viaSelector = await http.get(BASE, { token: B.token, query: { customerId: A.customerId, size: 100 } });
    expect(viaSelector.body.content.map((a: any) => a.name)).not.toContain("A only");
    expect((await http.put(`${BASE}/${mine.id}`, { token: B.token, body: { name: "stolen" } })).status).toBe(404);
    expect((await http.delete(`${BASE}/${mine.id}`, { token: B.token })).status).toBe(404);
    expect((await upload(B.token, mine.id, await widgetZip({ name: "b-steal", version: "1" }))).status).toBe(404);
    expect((await download(B.token, mine.id)).status).toBe(404);
    // ADMIN with the (C) selector sees exactly that tenant.
    const admin = await http.get(BASE, { token: env.adminToken, query: { customerId: B.customerId, size: 100 } });
    expect(admin.body.content.length).toBeGreaterThan(0);
    expect(admin.body.content.every((a: any) => a.customerId === B.customerId)).toBe(true);
  });

  it("an ADMIN creating an app for a customerId of no customer gets 404 customer.error.notFound and nothing is stored; for an existing one the app is created there", async () => {
    const ghost = await http.post(BASE, { token: env.adminToken, query: { customerId: 999_999 }, body: { name: "Ghost" } });
    expect(ghost.status, ghost.text).toBe(404);
    expect(ghost.body).toMatchObject({ key: "customer.error.notFound", details: { id: 999_999 } });
    expect(await env.platform.knexOf("media")("custom_app").where({ customer_id: 999_999 })).toHaveLength(0);
    const real = await http.post(BASE, { token: env.adminToken, query: { customerId: B.customerId }, body: { name: "For B" } });
    expect(real.status, real.text).toBe(200);
    expect(real.body.customerId).toBe(B.customerId);
  });

  it("list is a Page with the common list params (search, sort, size)", async () => {
    const { owner } = await env.tenant();
    await create(owner.token, { name: "Beta" });
    await create(owner.token, { name: "Alpha" });
    await create(owner.token, { name: "Gamma", type: "HTML_BUNDLE" });
    const page = await http.get(BASE, { token: owner.token, query: { size: 2, sort: "name,asc" } });
    expect(page.body).toMatchObject({ totalElements: 3, totalPages: 2, size: 2, number: 0, first: true, last: false, numberOfElements: 2 });
    expect(page.body.content.map((a: any) => a.name)).toEqual(["Alpha", "Beta"]);
    const bundles = await http.get(BASE, { token: owner.token, query: { search: "type=HTML_BUNDLE" } });
    expect(bundles.body.content.map((a: any) => a.name)).toEqual(["Gamma"]);
  });

  it("update: 'name, enabled, description, widgetCategory (all optional)'", async () => {
    const app = await create(A.token, { name: "Before" });
    const res = await http.put(`${BASE}/${app.id}`, { token: A.token, body: { name: "After", description: "d", widgetCategory: "CHARTS" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: app.id, name: "After", description: "d", widgetCategory: "CHARTS", type: "WIDGET", enabled: false });
    const blank = await http.put(`${BASE}/${app.id}`, { token: A.token, body: { name: " " } });
    expect([blank.status, blank.body.key]).toEqual([400, "customApp.error.nameRequired"]);
  });

  it("'Updates cannot change ownership, app type or repository-update settings, and cannot move an app to another customer'", async () => {
    const app = await create(A.token, { name: "Fixed" });
    for (const body of [{ type: "HTML_BUNDLE" }, { ownershipType: "PLATFORM" }, { customerId: B.customerId }]) {
      const res = await http.put(`${BASE}/${app.id}`, { token: A.token, body });
      expect([res.status, res.body.key], JSON.stringify(body)).toEqual([400, "customApp.error.immutableField"]);
    }
    // Repeating the current values (a client sending the whole app back) is fine.
    const same = await http.put(`${BASE}/${app.id}`, { token: A.token, body: { type: "WIDGET", ownershipType: "CUSTOMER", customerId: A.customerId, name: "Fixed 2" } });
    expect(same.status, same.text).toBe(200);
    expect(same.body).toMatchObject({ type: "WIDGET", ownershipType: "CUSTOMER", customerId: A.customerId });
  });

  it("'packaged | PUT with enabled true | enabled': an app without a package cannot be enabled", async () => {
    const app = await create(A.token, { name: "Empty" });
    const res = await http.put(`${BASE}/${app.id}`, { token: A.token, body: { enabled: true } });
    expect([res.status, res.body.key]).toEqual([409, "customApp.error.notPackaged"]);
  });

  it("delete removes the app and its package blobs", async () => {
    const app = await create(A.token, { name: "Doomed" });
    const up = await upload(A.token, app.id, await widgetZip({ name: "doomed", version: "1" }));
    expect(up.status, up.text).toBe(200);
    const { entry_point: entryKey } = await rowOf(app.id);
    expect(await exists(entryKey)).toBe(true);
    const del = await http.delete(`${BASE}/${app.id}`, { token: A.token });
    expect(del.status).toBeLessThan(300);
    expect((await http.put(`${BASE}/${app.id}`, { token: A.token, body: { name: "x" } })).status).toBe(404);
    expect(await exists(entryKey)).toBe(false);
    expect((await http.delete(`${BASE}/${app.id}`, { token: A.token })).status).toBe(404);
  });
});

describe("upload and download", () => {
  it("WIDGET upload: config.json 'name and version ... set package identity and version'; paths, size, resources returned", async () => {
    const app = await create(A.token, { name: "Weather" });
    const zip = await widgetZip({ name: "weather-widget", version: "1.2.3", entryPoint: "index.html" }, { "js/main.js": "run()" });
    const res = await upload(A.token, app.id, zip);
    expect(res.status, res.text).toBe(200);
    const body = res.body;
    expect(body).toMatchObject({ id: app.id, appId: "weather-widget", version: "1.2.3", sizeBytes: zip.length, enabled: false, type: "WIDGET" });
    expect(body.config).toMatchObject({ name: "weather-widget", version: "1.2.3" });
    // "use these returned values instead of building storage URLs": URLs that serve the package (custom-app-files.test.ts).
    expect(body.appRootPath).toMatch(/^\/api\/customApp\/files\/[^/]+\/$/);
    expect(body.entryPoint).toBe(`${body.appRootPath}index.html`);
    expect(body.iconPath).toBe(`${body.appRootPath}icon.png`);
    expect([...body.resourceList].sort()).toEqual(["config.json", "icon.png", "index.html", "js/main.js"]);
    expect(body.lastUpdated).toBeGreaterThanOrEqual(app.lastUpdated);
    const row = await rowOf(app.id);
    expect(row.app_root_path).toMatch(new RegExp(`^custom-apps/${A.customerId}/${app.id}/[^/]+/files/$`));
    for (const key of [row.entry_point, row.icon_path, row.app_root_path + "js/main.js"]) expect(await exists(key), key).toBe(true);
    // Now packaged, it can be enabled.
    const enabled = await http.put(`${BASE}/${app.id}`, { token: A.token, body: { enabled: true } });
    expect(enabled.body.enabled).toBe(true);
    const disabled = await http.put(`${BASE}/${app.id}`, { token: A.token, body: { enabled: false } });
    expect(disabled.body.enabled).toBe(false);
  });

  it("'Private app package download before any upload | fails'; afterwards the current ZIP comes back", async () => {
    const app = await create(A.token, { name: "Downloadable" });
    const before = await download(A.token, app.id);
    expect(before.status).toBe(404);
    expect(((await before.json()) as { key: string }).key).toBe("customApp.error.noPackage");
    const zip = await widgetZip({ name: "dl-widget", version: "9" });
    expect((await upload(A.token, app.id, zip)).status).toBe(200);
    const after = await download(A.token, app.id);
    expect(after.status).toBe(200);
    expect(after.headers.get("content-type")).toContain("application/zip");
    // A ZIP is saved, not displayed (RFC 6266 `attachment`), under `<app name>-<version>.zip`.
    expect(after.headers.get("content-disposition")).toBe(`attachment; filename="Downloadable-9.zip"; filename*=UTF-8''Downloadable-9.zip`);
    expect(Buffer.from(await after.arrayBuffer()).equals(zip)).toBe(true);
  });

  it("the package download is an attachment named after the app: unicode in filename* (RFC 8187), an ASCII fallback, no path separators", async () => {
    const app = await create(A.token, { name: "Café / Lobby" });
    expect((await upload(A.token, app.id, await widgetZip({ name: "cafe-lobby", version: "1.0" }))).status).toBe(200);
    const res = await download(A.token, app.id);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="Caf_ _ Lobby-1.0.zip"; filename*=UTF-8''Caf%C3%A9%20_%20Lobby-1.0.zip`);
  });

  it("'An upload replaces the previous package': new identity/version, old blobs removed", async () => {
    const app = await create(A.token, { name: "Versioned" });
    const first = await upload(A.token, app.id, await widgetZip({ name: "versioned", version: "1" }));
    const firstRow = await rowOf(app.id);
    const v2 = await widgetZip({ name: "versioned", version: "2" }, { "extra.css": "body{}" });
    const second = await upload(A.token, app.id, v2);
    expect(second.status, second.text).toBe(200);
    expect(second.body.version).toBe("2");
    expect(second.body.appRootPath).not.toBe(first.body.appRootPath);
    expect(await exists(firstRow.entry_point)).toBe(false);
    expect(await exists((await rowOf(app.id)).app_root_path + "extra.css")).toBe(true);
    const dl = await download(A.token, app.id);
    expect(Buffer.from(await dl.arrayBuffer()).equals(v2)).toBe(true);
  });

  it("HTML_BUNDLE: 'index.html at its root; the server creates the manifest and identity'", async () => {
    const app = await create(A.token, { name: "Bundle", type: "HTML_BUNDLE" });
    const missing = await upload(A.token, app.id, await zipOf({ "site/index.html": "<html/>" }));
    expect([missing.status, missing.body.key, missing.body.details?.reason]).toEqual([400, "customApp.error.invalidPackage", "missingIndexHtml"]);
    const res = await upload(A.token, app.id, await bundleZip());
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ appId: `html-bundle-${app.id}`, version: "1", type: "HTML_BUNDLE" });
    expect(res.body.entryPoint).toBe(`${res.body.appRootPath}index.html`);
    expect(res.body.config).toMatchObject({ name: "Bundle", appId: `html-bundle-${app.id}`, type: "HTML_BUNDLE", entryPoint: "index.html" });
    const again = await upload(A.token, app.id, await bundleZip({ "b.js": "2" }));
    expect(again.body.version).toBe("2");
  });

  it("'invalid package content -> HTTP 400': WIDGET without config.json, bad name/version, not a ZIP", async () => {
    const app = await create(A.token, { name: "Invalid" });
    const cases: [Buffer, string][] = [
      [await bundleZip(), "missingConfig"],
      [await widgetZip({ name: "", version: "1" }), "invalidConfig"],
      [await widgetZip({ name: "n".repeat(256), version: "1" }), "invalidConfig"],
      [await widgetZip({ name: "ok" }), "invalidConfig"],
      [Buffer.from("this is not a zip"), "notZip"],
    ];
    for (const [zip, reason] of cases) {
      const res = await upload(A.token, app.id, zip);
      expect([res.status, res.body.key, res.body.details?.reason], reason).toEqual([400, "customApp.error.invalidPackage", reason]);
    }
    // Nothing was stored: still no package.
    expect((await download(A.token, app.id)).status).toBe(404);
  });

  it("a ZIP with '../' entries is refused (safe unzip: no path traversal) and nothing escapes the blob root", async () => {
    const app = await create(A.token, { name: "Traversal" });
    const evil = handMadeZip([
      { name: "config.json", data: JSON.stringify({ name: "evil", version: "1" }) },
      { name: "../../../escaped.txt", data: "pwned" },
    ]);
    const res = await upload(A.token, app.id, evil);
    expect([res.status, res.body.key, res.body.details?.reason]).toEqual([400, "customApp.error.invalidPackage", "unsafePath"]);
    expect(await exists("../escaped.txt")).toBe(false);
    const absolute = await upload(A.token, app.id, handMadeZip([{ name: "config.json", data: "{}" }, { name: "/etc/evil", data: "x" }]));
    expect(absolute.body.details?.reason).toBe("unsafePath");
  });

  it("a zip bomb is refused (compression ratio)", async () => {
    const app = await create(A.token, { name: "Bomb" });
    // 50 MiB of zeros: about 50 KiB compressed (under the upload limit), ratio ~1000.
    const bomb = await zipOf({ "config.json": JSON.stringify({ name: "bomb", version: "1" }), "zeros.bin": Buffer.alloc(50 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(MAX_UPLOAD_BYTES);
    const res = await upload(A.token, app.id, bomb);
    expect([res.status, res.body.details?.reason]).toEqual([400, "compressionRatio"]);
  });

  it("content type must be application/zip or application/x-zip-compressed (415); oversize uploads are 413", async () => {
    const app = await create(A.token, { name: "Types" });
    const zip = await widgetZip({ name: "typed", version: "1" });
    const text = await upload(A.token, app.id, zip, "text/plain");
    expect([text.status, text.body.key]).toEqual([415, "media.error.unsupportedMediaType"]);
    const legacy = await upload(A.token, app.id, zip, "application/x-zip-compressed");
    expect(legacy.status, legacy.text).toBe(200);
    const big = await zipOf({ "config.json": JSON.stringify({ name: "big", version: "1" }), "noise.bin": Buffer.from(Array.from({ length: MAX_UPLOAD_BYTES + 1024 }, (_, i) => (i * 7919) % 251)) }, { compress: false });
    const tooLarge = await upload(A.token, app.id, big);
    expect([tooLarge.status, tooLarge.body.key]).toEqual([413, "upload.error.payloadTooLarge"]);
    const noFile = await http.post(`${BASE}/${app.id}/upload`, { token: A.token, body: packageForm(zip, "application/zip", "other") });
    expect([noFile.status, noFile.body.key]).toEqual([400, "customApp.error.fileMissing"]);
  });

  it("'Package identity already used in the customer's effective catalog -> HTTP 409'; another customer may use it", async () => {
    const first = await create(A.token, { name: "Original" });
    const second = await create(A.token, { name: "Copy" });
    expect((await upload(A.token, first.id, await widgetZip({ name: "shared-identity", version: "1" }))).status).toBe(200);
    const clash = await upload(A.token, second.id, await widgetZip({ name: "shared-identity", version: "2" }));
    expect([clash.status, clash.body.key]).toEqual([409, "customApp.error.identityTaken"]);
    // Re-uploading to the app that owns the identity is a replace, not a clash.
    expect((await upload(A.token, first.id, await widgetZip({ name: "shared-identity", version: "3" }))).status).toBe(200);
    const other = await create(B.token, { name: "Elsewhere" });
    expect((await upload(B.token, other.id, await widgetZip({ name: "shared-identity", version: "1" }))).status).toBe(200);
  });
});

describe("contract", () => {
  it("the package download path chosen for 'Download package | Method and path: not shown' is published", async () => {
    const spec = await http.get("/openapi.json");
    expect(spec.status).toBe(200);
    expect(Object.keys(spec.body.paths[`${BASE}/{id}/download`] ?? {})).toContain("get");
    expect(Object.keys(spec.body.paths[`${BASE}/{id}/upload`] ?? {})).toContain("post");
  });
});
