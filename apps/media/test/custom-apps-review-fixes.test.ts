// Private apps over HTTP through the gateway: two review findings of
// document 1 ("Private apps", "Errors", "Limits").
//  - "invalid package content -> HTTP 400": entry names that cannot become a
//    blob key (a path segment over 255 bytes, a whole key over 1024 bytes once
//    encoded) are refused before anything is stored, never a 500.
//  - "List own apps ... Page of private app (only this customer's apps, not the
//    combined catalog)": an ADMIN without the selector lists its own customer's
//    apps (the tenant a create without the selector uses), with it that customer's.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handMadeZip, widgetZip } from "./support/custom-apps-zip.js";
import { packageForm, startCustomAppsPlatform, type CustomAppsPlatform } from "./support/custom-apps-platform.js";

const BASE = "/api/customApp/myApps";
let env: CustomAppsPlatform;
let A: { customerId: number; token: string };
let B: { customerId: number; token: string };

beforeAll(async () => {
  env = await startCustomAppsPlatform();
  const a = await env.tenant();
  const b = await env.tenant();
  A = { customerId: a.customerId, token: a.owner.token };
  B = { customerId: b.customerId, token: b.owner.token };
}, 60_000);
afterAll(() => env?.close());

const http = () => env.platform.http;

async function create(token: string, body: Record<string, unknown>, query?: Record<string, string | number>) {
  const res = await http().post(BASE, { token, body, query });
  expect(res.status, res.text).toBe(200);
  return res.body as Record<string, any>;
}

const upload = (token: string, id: number, zip: Buffer) => http().post(`${BASE}/${id}/upload`, { token, body: packageForm(zip) });

/** Everything stored below the app's package prefix (`custom-apps/<customerId>/<id>/`), as relative paths. */
async function storedUnder(customerId: number, id: number): Promise<string[]> {
  try {
    return (await readdir(join(env.blobRoot, "custom-apps", String(customerId), String(id)), { recursive: true })).map(String).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
}

const appRow = (id: number) => env.platform.knexOf("media")("custom_app").where({ id }).first();
const intentsUnder = (customerId: number, id: number) =>
  env.platform.knexOf("media")("blob_intent").where("key", "like", `custom-apps/${customerId}/${id}/%`).select("key");

/** A valid WIDGET package plus one extra file entry with this name. */
function widgetWith(entry: string, identity = "long-names"): Buffer {
  return handMadeZip([
    { name: "config.json", data: JSON.stringify({ name: identity, version: "1" }) },
    { name: "index.html", data: "<html/>" },
    { name: entry, data: "x" },
  ]);
}

describe("'Private app name blank or invalid; invalid package content | HTTP 400': entry names that cannot be stored", { timeout: 60_000 }, () => {
  it("'invalid package content -> HTTP 400': a 300-character file name, a name of 100 x 'é', a path whose encoded key exceeds 1024 bytes: 400 invalidPackage naming the entry and the limit; nothing stored", async () => {
    const app = await create(A.token, { name: "Long names" });
    const cases: [string, RegExp][] = [
      // 300 ASCII characters: one 300-byte path segment.
      [`${"a".repeat(297)}.js`, /255 bytes/],
      // 100 x 'é' = 200 UTF-8 bytes, written `=C3=A9` each: a 600-byte segment.
      ["é".repeat(100), /255 bytes/],
      // Five directories of 40 x 'é' (240 bytes each once encoded): every segment fits, the key (over 1200 bytes) does not.
      [Array.from({ length: 5 }, () => "é".repeat(40)).join("/") + "/a.js", /1024 bytes/],
    ];
    for (const [entry, limit] of cases) {
      const res = await upload(A.token, app.id, widgetWith(entry));
      expect(res.status, `${entry.slice(0, 20)}: ${res.text.slice(0, 300)}`).toBe(400);
      expect(res.body.key).toBe("customApp.error.invalidPackage");
      expect(res.body.message).toContain(entry);
      expect(res.body.message).toMatch(limit);
    }
    // Nothing stored or left behind, and the app is still unpackaged.
    expect(await storedUnder(A.customerId, app.id)).toEqual([]);
    expect(await intentsUnder(A.customerId, app.id)).toEqual([]);
    expect(await appRow(app.id)).toMatchObject({ package_key: null, app_root_path: null, resource_list: null, revision: 0 });
  });

  it("'invalid package content -> HTTP 400' (never a 500): a refused upload leaves a packaged app's row and blobs exactly as they were", async () => {
    const app = await create(A.token, { name: "Keeps its package" });
    const first = await upload(A.token, app.id, await widgetZip({ name: "keeper", version: "1" }));
    expect(first.status, first.text).toBe(200);
    const rowBefore = await appRow(app.id);
    const blobsBefore = await storedUnder(A.customerId, app.id);
    const res = await upload(A.token, app.id, widgetWith("é".repeat(100), "keeper"));
    expect([res.status, res.body.key]).toEqual([400, "customApp.error.invalidPackage"]);
    expect(await appRow(app.id)).toEqual(rowBefore);
    expect(await storedUnder(A.customerId, app.id)).toEqual(blobsBefore);
    expect(await intentsUnder(A.customerId, app.id)).toEqual([]);
  });

  it("the bounds are accepted: a 255-byte segment, and a key of exactly 1024 bytes (1025 is refused)", async () => {
    const app = await create(A.token, { name: "Bounds" });
    const segment = "b".repeat(255);
    const ok = await upload(A.token, app.id, widgetWith(segment, "bounds"));
    expect(ok.status, ok.text.slice(0, 300)).toBe(200);
    expect(ok.body.resourceList).toContain(segment);
    // The root has a fixed length for this app (its upload id is a UUID).
    const room = 1024 - (await env.platform.knexOf("media")("custom_app").where({ id: app.id }).first()).app_root_path.length;
    // ASCII directories of 200 bytes, then a last segment with whatever is left.
    const pathOf = (bytes: number) => {
      let path = "";
      let left = bytes;
      for (; left > 201; left -= 201) path += `${"c".repeat(200)}/`;
      return path + "d".repeat(left);
    };
    const exact = pathOf(room);
    expect(Buffer.byteLength(exact)).toBe(room);
    const fits = await upload(A.token, app.id, widgetWith(exact, "bounds"));
    expect(fits.status, fits.text.slice(0, 300)).toBe(200);
    const over = pathOf(room + 1);
    expect(Buffer.byteLength(over)).toBe(room + 1);
    const refused = await upload(A.token, app.id, widgetWith(over, "bounds"));
    expect([refused.status, refused.body.key]).toEqual([400, "customApp.error.invalidPackage"]);
  });
});

describe("'List own apps | GET /api/customApp/myApps | ... | Page of private app (only this customer's apps, not the combined catalog)'", () => {
  it("an ADMIN without customerId lists only its own customer's apps (where its create without the selector puts them); with customerId, that customer's", async () => {
    const theirs = await create(B.token, { name: "Belongs to B" });
    // Create without the selector: "the caller's own unless the selector names one".
    const own = await create(env.adminToken, { name: "Admin's own" });
    expect(own.customerId).not.toBe(B.customerId);

    const unselected = await http().get(BASE, { token: env.adminToken, query: { size: 1000 } });
    expect(unselected.status, unselected.text).toBe(200);
    const ids = unselected.body.content.map((a: any) => a.id);
    expect(ids).toContain(own.id);
    expect(ids).not.toContain(theirs.id);
    expect(unselected.body.content.every((a: any) => a.customerId === own.customerId)).toBe(true);

    const selected = await http().get(BASE, { token: env.adminToken, query: { customerId: B.customerId, size: 1000 } });
    expect(selected.status, selected.text).toBe(200);
    expect(selected.body.content.map((a: any) => a.id)).toContain(theirs.id);
    expect(selected.body.content.every((a: any) => a.customerId === B.customerId)).toBe(true);
  });
});
