// End to end over HTTP against the cluster composition: gateway -> core/media
// over gRPC, customer.created through NATS JetStream into media.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "./cluster-harness.js";
import { startOtlpReceiver, type OtlpReceiver } from "./otlp-receiver.js";

let cluster: Cluster;
let otlp: OtlpReceiver;
beforeAll(async () => {
  otlp = await startOtlpReceiver();
  cluster = await startCluster({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: "200" });
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
  await otlp?.close();
}, 60_000);

async function token(username: string, password: string): Promise<string> {
  const res = await fetch(`${cluster.baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "password", username, password }),
  });
  const body = (await res.json()) as any;
  if (!res.ok) throw new Error(`token: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

function api(tokenValue: string | undefined) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${cluster.baseUrl}${path}`, {
      method,
      headers: { ...(tokenValue ? { authorization: `Bearer ${tokenValue}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}

describe("cluster composition over HTTP", () => {
  it("POST /oauth/token returns {access_token, token_type: Bearer, expires_in, refresh_token}", async () => {
    const res = await fetch(`${cluster.baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=password&username=admin%40example.com&password=admin-change-me",
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 900 });
    expect(typeof body.access_token).toBe("string");
    expect(typeof body.refresh_token).toBe("string");
    const wrong = await fetch(`${cluster.baseUrl}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=password&username=admin%40example.com&password=nope" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()) as any).toMatchObject({ error: "invalid_grant", key: "oauth.error.invalid_grant" });
  });

  it("401 without a token, with the documented error body", async () => {
    const res = await api(undefined)("GET", "/api/v2/user/me");
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 401, error: "Unauthorized", key: "auth.error.unauthorized" });
  });

  it("creating a customer shows its unnamed root file folder in media once the event arrived", async () => {
    const admin = api(await token("admin@example.com", "admin-change-me"));
    const created = await admin("POST", "/api/customer", { name: "E2E Customer" });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: "E2E Customer", licenseTier: "ENTERPRISE" });
    const id = created.body.id;
    expect(typeof id).toBe("number");

    let folders: { status: number; body: any } = { status: 0, body: undefined };
    for (let i = 0; i < 100; i++) {
      folders = await admin("GET", `/api/v2/fileFolder?search=parentId=NULL&customerId=${id}`);
      if (folders.body?.totalElements === 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(folders.status).toBe(200);
    expect(folders.body.totalElements).toBe(1);
    expect(folders.body.content[0].name).toBeUndefined();
    expect(folders.body.content[0].customerId).toBe(id);
  });

  it("403 below the method's role; a non-admin's customerId of another tenant never widens its scope", async () => {
    const admin = api(await token("admin@example.com", "admin-change-me"));
    const a = (await admin("POST", "/api/customer", { name: "Scope A" })).body.id;
    const b = (await admin("POST", "/api/customer", { name: "Scope B" })).body.id;
    expect((await admin("POST", `/api/user/?customerId=${a}`, { email: "viewer@a.test", role: "VIEWER", password: "viewer-pass" })).status).toBe(200);
    expect((await admin("POST", `/api/user/?customerId=${b}`, { email: "viewer@b.test", role: "VIEWER", password: "viewer-pass" })).status).toBe(200);
    const viewer = api(await token("viewer@a.test", "viewer-pass"));

    const forbidden = await viewer("POST", "/api/customer", { name: "Nope" });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.key).toBe("auth.error.forbidden");

    const users = await viewer("GET", `/api/v2/user?customerId=${b}`);
    expect(users.status).toBe(200);
    const emails = users.body.content.map((u: { email: string }) => u.email);
    expect(emails).toContain("viewer@a.test");
    expect(emails).not.toContain("viewer@b.test");
    const customers = await viewer("GET", `/api/customer?customerId=${b}`);
    expect(customers.body.content.map((c: { id: number }) => c.id)).toEqual([a]);
  });

  it("declared but unbuilt operations answer 501 with a clear message", async () => {
    const admin = api(await token("admin@example.com", "admin-change-me"));
    const res = await admin("GET", "/api/config/limits");
    expect(res.status).toBe(501);
    expect(res.body.key).toBe("error.notImplemented");
  });

  it("serves /openapi.json with roles and /docs", async () => {
    const spec = (await (await fetch(`${cluster.baseUrl}/openapi.json`)).json()) as any;
    expect(spec.openapi).toBe("3.1.0");
    expect(spec.paths["/api/customer"].get["x-min-role"]).toBe("VIEWER");
    expect(spec.paths["/api/v2/fileFolder"].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["page", "size", "sort", "search", "select", "customerId"]));
    expect((await fetch(`${cluster.baseUrl}/docs`)).headers.get("content-type")).toContain("text/html");
  });

  it("exports auto-instrumented spans over OTLP: HTTP in the gateway (one SERVER span named after the route), pg in the services", async () => {
    // Each process starts telemetry before importing http/koa/pg and runs with the ESM loader hook.
    await token("admin@example.com", "admin-change-me");
    const expected = ["@opentelemetry/instrumentation-http", "@opentelemetry/instrumentation-pg", "POST /oauth/token"];
    for (let i = 0; i < 100 && !expected.every((s) => otlp.received().includes(s)); i++) await new Promise((r) => setTimeout(r, 100));
    const body = otlp.received();
    for (const text of expected) expect(body.includes(text), `no span with ${text}`).toBe(true);
    // Koa's plain middleware is not traced (instrumentations.ts): no span per CORS/error/log layer.
    expect(body.includes("middleware - ")).toBe(false);
  });
});
