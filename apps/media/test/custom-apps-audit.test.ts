// Consumer audit of private apps (document 1, "Private apps" and "Package
// rules"), over HTTP through the gateway.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantUser } from "@signage/testing";
import { packageForm, startCustomAppsPlatform, type CustomAppsPlatform } from "./support/custom-apps-platform.js";
import { bundleZip, widgetZip } from "./support/custom-apps-zip.js";

const BASE = "/api/customApp/myApps";
let env: CustomAppsPlatform;
let A: TenantUser;

beforeAll(async () => {
  env = await startCustomAppsPlatform();
  A = (await env.tenant()).owner;
}, 60_000);
afterAll(() => env?.close());

const http = () => env.platform.http;
const create = (body: Record<string, unknown>) => http().post(BASE, { token: A.token, body });
const upload = (id: number, zip: Buffer) => http().post(`${BASE}/${id}/upload`, { token: A.token, body: packageForm(zip) });

describe("private apps audit", { timeout: 30_000 }, () => {
  // Seed: "Private app name blank or invalid; invalid package content -> HTTP 400" (never a 500).
  it("a NUL character in name or description is 400 on create and update, and nothing is written", async () => {
    const before = await http().get(BASE, { token: A.token, query: { size: "1" } });
    for (const body of [{ name: "a\u0000b" }, { name: "ok", description: "x\u0000y" }]) {
      const res = await create(body);
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ status: 400, error: "Bad Request", key: "customApp.error.invalidText" });
    }
    const after = await http().get(BASE, { token: A.token, query: { size: "1" } });
    expect(after.body.totalElements).toBe(before.body.totalElements);
    const app = await create({ name: "Clean" });
    for (const body of [{ name: "a\u0000b" }, { description: "x\u0000y" }]) {
      const res = await http().put(`${BASE}/${app.body.id}`, { token: A.token, body });
      expect(res.status, res.text).toBe(400);
      expect(res.body.key).toBe("customApp.error.invalidText");
    }
    const unchanged = await http().get(BASE, { token: A.token, query: { search: `id=${app.body.id}` } });
    expect(unchanged.body.content[0]).toMatchObject({ name: "Clean" });
  });

  // Seed: "HTML_BUNDLE ZIP contains `index.html` at its root; the server creates the manifest and
  // identity." A widget's config.json must not take the identity the server gives a bundle, or
  // that bundle's upload would be refused with 409 ("Package identity already used").
  it("a WIDGET cannot claim a server-created HTML bundle identity; the bundle's upload then succeeds", async () => {
    const bundle = await create({ name: "Bundle", type: "HTML_BUNDLE" });
    const widget = await create({ name: "Squatter" });
    const squat = await upload(widget.body.id, await widgetZip({ name: `html-bundle-${bundle.body.id}`, version: "1" }));
    expect(squat.status, squat.text).toBe(400);
    expect(squat.body).toMatchObject({ key: "customApp.error.invalidPackage", details: { reason: "reservedIdentity" } });
    const ok = await upload(bundle.body.id, await bundleZip());
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.appId).toBe(`html-bundle-${bundle.body.id}`);
  });
});
