// Browser clients on other origins: only the origins the operator names (GATEWAY_CORS_ORIGINS)
// get CORS headers, on answers and errors alike; none by default.
import { afterAll, describe, expect, it } from "vitest";
import { createRouterTransport } from "@connectrpc/connect";
import { allFiles } from "@signage/contracts";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { createGateway, parseCorsOrigins, upstreamsByPackage } from "../src/index.js";

const silent = { info() {}, warn() {}, error() {}, debug() {} };
const servers: { close(cb: () => void): void }[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((ok) => s.close(() => ok())))));

function gatewayAllowing(corsOrigins: string[]) {
  const transport = createRouterTransport((router) => router.service(UserService, { getMe: () => ({ user: { email: "a@b.c" } }) }));
  const upstreams = upstreamsByPackage({ core: transport, media: transport, integration: transport, reporting: transport, licensing: transport });
  const server = createGateway({ files: allFiles, upstreams, logger: silent, corsOrigins }).app.listen(0);
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const UI = "https://console.example.test";

describe("CORS", () => {
  it("parses the comma separated allowlist (trailing slashes and blanks ignored)", () => {
    expect(parseCorsOrigins(" https://a.test/, ,https://b.test")).toEqual(["https://a.test", "https://b.test"]);
    expect(parseCorsOrigins(undefined)).toEqual([]);
    expect(parseCorsOrigins("HTTPS://Console.Example.test:8443")).toEqual(["https://console.example.test:8443"]);
    // A value that could never match (no scheme) or would match sandboxed pages (null) is a start-up error.
    for (const wrong of ["console.example.test", "null", "https://a.test/path"]) expect(() => parseCorsOrigins(wrong), wrong).toThrow(/GATEWAY_CORS_ORIGINS/);
  });

  it("answers a named origin's preflight with the methods and headers this API uses", async () => {
    const base = gatewayAllowing([UI]);
    const res = await fetch(`${base}/api/v2/user/me`, { method: "OPTIONS", headers: { origin: UI, "access-control-request-method": "GET", "access-control-request-headers": "authorization,x-totp" } });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(UI);
    expect(res.headers.get("access-control-allow-methods")).toContain("DELETE");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("x-totp");
    expect(res.headers.get("vary")).toContain("Origin");
  });

  it("lets a named origin revalidate and resume downloads: If-None-Match and If-Range allowed, ETag exposed", async () => {
    const base = gatewayAllowing([UI]);
    const res = await fetch(`${base}/storage/v1/blobs/x`, { method: "OPTIONS", headers: { origin: UI, "access-control-request-method": "GET", "access-control-request-headers": "range,if-range,if-none-match" } });
    const allowed = res.headers.get("access-control-allow-headers")?.toLowerCase().split(/,\s*/) ?? [];
    expect(allowed).toEqual(expect.arrayContaining(["range", "if-range", "if-none-match"]));
    const ok = await fetch(`${base}/api/v2/user/me`, { headers: { origin: UI } });
    expect(ok.headers.get("access-control-expose-headers")?.split(/,\s*/)).toEqual(expect.arrayContaining(["ETag", "Content-Range", "Accept-Ranges"]));
  });

  it("marks answers and error bodies for a named origin, and nothing for another", async () => {
    const base = gatewayAllowing([UI]);
    const ok = await fetch(`${base}/api/v2/user/me`, { headers: { origin: UI } });
    expect(ok.headers.get("access-control-allow-origin")).toBe(UI);
    expect(ok.headers.get("access-control-expose-headers")).toContain("Content-Disposition");
    // A locked account's 429 says when to retry (Retry-After is not CORS-safelisted).
    expect(ok.headers.get("access-control-expose-headers")).toContain("Retry-After");
    const missing = await fetch(`${base}/api/nothing-here`, { headers: { origin: UI } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("access-control-allow-origin")).toBe(UI);
    const other = await fetch(`${base}/api/v2/user/me`, { headers: { origin: "https://evil.example.test" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    // Without an Origin the answer still varies by it (a shared cache must not reuse it cross-origin).
    const plain = await fetch(`${base}/api/v2/user/me`);
    expect(plain.headers.get("vary")).toContain("Origin");
  });

  it("sends no CORS headers when no origin is named (the default)", async () => {
    const base = gatewayAllowing([]);
    const res = await fetch(`${base}/api/v2/user/me`, { headers: { origin: UI } });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await fetch(`${base}/api/v2/user/me`, { method: "OPTIONS", headers: { origin: UI, "access-control-request-method": "GET" } });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("'*' allows any origin", async () => {
    const base = gatewayAllowing(["*"]);
    const res = await fetch(`${base}/api/v2/user/me`, { headers: { origin: "https://anywhere.test" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
