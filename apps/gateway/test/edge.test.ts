// In-memory level: what an API consumer relies on at the REST edge besides the transcoding
// itself (methods, path and query parsing, token response headers), against small in-process
// implementations of the real contracts.
import { afterAll, describe, expect, it } from "vitest";
import { Code, ConnectError, createRouterTransport } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus } from "@signage/contracts/grpc/health/v1/health_pb";
import { allFiles } from "@signage/contracts";
import { CustomerService } from "@signage/contracts/signage/core/v1/customer_pb";
import { AuthService } from "@signage/contracts/signage/core/v1/auth_pb";
import { FileFolderService } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { createGateway, upstreamsByPackage } from "../src/index.js";
import { bearerFetch as fetch } from "./support/bearer-fetch.js";

const silent = { info() {}, warn() {}, error() {}, debug() {} };
const servers: { close(cb: () => void): void }[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((ok) => s.close(() => ok())))));

function gatewayWith(register: Parameters<typeof createRouterTransport>[0]): string {
  const transport = createRouterTransport(register);
  const upstreams = upstreamsByPackage({ core: transport, media: transport, integration: transport, reporting: transport, licensing: transport });
  const server = createGateway({ files: allFiles, upstreams, logger: silent }).app.listen(0);
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const ERROR_KEYS = ["details", "error", "key", "message", "status"];

describe("REST edge", () => {
  // Readiness must not depend on the upstreams (one service down would take every route out of
  // the load balancer, the healthy services' too): /readyz stays 200 and names what is down.
  it("stays ready when an upstream is down, reporting it as DEGRADED", async () => {
    const serving = createRouterTransport((router) => router.service(Health, { check: () => ({ status: HealthCheckResponse_ServingStatus.SERVING }) }));
    const down = createRouterTransport((router) =>
      router.service(Health, {
        check: () => {
          throw new ConnectError("connection refused", Code.Unavailable);
        },
      }),
    );
    const listen = (upstreams: Parameters<typeof upstreamsByPackage>[0]) => {
      const server = createGateway({ files: allFiles, upstreams: upstreamsByPackage(upstreams), logger: silent }).app.listen(0);
      servers.push(server);
      return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    };
    const healthy = await fetch(`${listen({ core: serving, media: serving, integration: serving, reporting: serving, licensing: serving })}/readyz`);
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toEqual({ status: "UP", services: { core: "SERVING", media: "SERVING", integration: "SERVING", reporting: "SERVING", licensing: "SERVING" } });
    const degraded = await fetch(`${listen({ core: serving, media: serving, integration: serving, reporting: serving, licensing: down })}/readyz`);
    expect(degraded.status).toBe(200);
    const body = (await degraded.json()) as { status: string; services: Record<string, string> };
    expect(body.status).toBe("DEGRADED");
    expect(body.services.core).toBe("SERVING");
    expect(body.services.licensing).toMatch(/^UNAVAILABLE: .*connection refused/);
  });

  // RFC 9110 15.5.6: a 405 response MUST carry an Allow header listing the methods the path takes.
  it("answers a wrong method with 405, the Allow header and the error body", async () => {
    const base = gatewayWith(() => {});
    const res = await fetch(`${base}/api/customer`, { method: "PATCH" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("HEAD, GET, POST");
    const body = (await res.json()) as Record<string, unknown> & { message: string };
    expect(Object.keys(body).sort()).toEqual(ERROR_KEYS);
    expect(body).toMatchObject({ status: 405, error: "Method Not Allowed", key: "error.methodNotAllowed" });
  });

  // A path parameter is percent-decoded once (RFC 3986 2.4): `%25` is a literal `%`, never a 500,
  // and `%2532` is the text `%32`, not `2`.
  it("decodes percent-encoded path parameters exactly once", async () => {
    const seen: string[] = [];
    const base = gatewayWith((router) => router.service(FileFolderService, { deleteFileFolder: (req) => (seen.push(req.folderId), {}) }));
    expect((await fetch(`${base}/api/fileFolder/100%25`, { method: "DELETE" })).status).toBe(204);
    expect((await fetch(`${base}/api/fileFolder/%2532`, { method: "DELETE" })).status).toBe(204);
    expect(seen).toEqual(["100%", "%32"]);
    const res = await fetch(`${base}/api/customer/%2532`, { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ key: "request.error.invalid", details: { where: "Path parameter 'id'" } });
  });

  // A single-valued parameter given twice is ambiguous (HTTP parameter pollution: a proxy may have
  // checked the other value, e.g. the customerId selector): 400, not a silent pick.
  it("refuses a repeated query parameter for a single-valued field; repeated fields still take several", async () => {
    let sorts: string[] = [];
    const base = gatewayWith((router) => router.service(CustomerService, { listCustomers: (req) => ((sorts = req.query?.sort ?? []), {}) }));
    const res = await fetch(`${base}/api/customer?customerId=1&customerId=2`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, unknown> & { message: string };
    expect(body).toMatchObject({ status: 400, key: "request.error.invalid" });
    expect(body.message).toContain("'customerId'");
    expect((await fetch(`${base}/api/customer?sort=name,asc&sort=id,desc`)).status).toBe(200);
    expect(sorts).toEqual(["name,asc", "id,desc"]);
  });

  // A documented trailing slash (`POST /api/fileFolder/`) is optional, as for every other path
  // (`/api/customer/` reaches `/api/customer`): a client that normalises it away must not get 404.
  it("matches documented trailing-slash paths with and without the slash", async () => {
    let calls = 0;
    const base = gatewayWith((router) => router.service(FileFolderService, { createFileFolder: () => (calls++, { folder: { id: "f1", name: "a" } }) }));
    for (const path of ["/api/fileFolder/", "/api/fileFolder"]) {
      const res = await fetch(`${base}${path}?parentId=root&name=a`, { method: "POST" });
      expect(res.status, path).toBe(200);
    }
    expect(calls).toBe(2);
  });

  // RFC 6749 5.1: the token response carries Cache-Control: no-store and Pragma: no-cache.
  it("marks token responses as not cacheable", async () => {
    const base = gatewayWith((router) => router.service(AuthService, { issueToken: () => ({ accessToken: "a", tokenType: "Bearer", expiresIn: 900n }) }));
    const res = await fetch(`${base}/oauth/token`, { method: "POST", body: new URLSearchParams({ grant_type: "password", username: "u", password: "p" }) });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
  });

  // RFC 6749 2.3.1 / 5.2: client credentials in a Basic header that cannot be decoded are a client
  // authentication failure (401 invalid_client), not a 500; well-formed ones reach the service decoded.
  it("answers a malformed Basic client header with 401 invalid_client and decodes a good one", async () => {
    let seen: { clientId?: string; clientSecret?: string } | undefined;
    const base = gatewayWith((router) =>
      router.service(AuthService, {
        issueToken: (req) => {
          seen = req;
          return { accessToken: "a", tokenType: "Bearer", expiresIn: 900n };
        },
      }),
    );
    const token = (authorization: string) => fetch(`${base}/oauth/token`, { method: "POST", headers: { authorization }, body: new URLSearchParams({ grant_type: "client_credentials" }) });
    for (const credentials of ["%zz:secret", "no-colon-at-all"]) {
      const res = await token(`Basic ${Buffer.from(credentials).toString("base64")}`);
      expect([res.status, ((await res.json()) as { error: string }).error], credentials).toEqual([401, "invalid_client"]);
    }
    expect(seen).toBeUndefined();
    expect((await token(`Basic ${Buffer.from("my%20client:p%3Ass:w").toString("base64")}`)).status).toBe(200);
    expect(seen).toMatchObject({ clientId: "my client", clientSecret: "p:ss:w" });
  });

  // RFC 6750 3: "the resource server MUST include the HTTP WWW-Authenticate response header field"
  // on a 401, with error="invalid_token" when a presented token was refused; RFC 6749 5.2: a client
  // that authenticated with Basic at the token endpoint is challenged with Basic.
  it("challenges every 401 with WWW-Authenticate (exposed to browsers)", async () => {
    const unauthenticated = () => {
      throw new ConnectError("no", Code.Unauthenticated);
    };
    const base = gatewayWith((router) => {
      router.service(CustomerService, { listCustomers: unauthenticated });
      router.service(AuthService, { issueToken: unauthenticated });
    });
    // Sent as given (no stand-in token): the first request has no credentials at all.
    const challenge = async (path: string, init: RequestInit = {}) => (await globalThis.fetch(`${base}${path}`, init)).headers.get("www-authenticate");
    expect(await challenge("/api/customer")).toBe('Bearer realm="signage"');
    expect(await challenge("/api/customer", { headers: { authorization: "Bearer expired" } })).toBe('Bearer realm="signage", error="invalid_token"');
    const basic = `Basic ${Buffer.from("client:wrong").toString("base64")}`;
    expect(await challenge("/oauth/token", { method: "POST", headers: { authorization: basic }, body: new URLSearchParams({ grant_type: "client_credentials" }) })).toBe('Basic realm="signage"');
    expect(await challenge("/oauth/token", { method: "POST", headers: { authorization: "Basic %%%" }, body: new URLSearchParams({ grant_type: "client_credentials" }) })).toBe('Basic realm="signage"');
  });

  // RFC 7009 2.1: "token REQUIRED"; 2.2.1 / RFC 6749 5.2: a missing parameter is invalid_request.
  it("answers /oauth/revoke without a token 400 invalid_request, revoking nothing", async () => {
    let revoked = 0;
    const base = gatewayWith((router) => router.service(AuthService, { revokeToken: () => (revoked++, {}) }));
    const res = await fetch(`${base}/oauth/revoke`, { method: "POST", body: new URLSearchParams({ foo: "bar" }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 400, error: "invalid_request", key: "oauth.error.invalid_request" });
    expect(revoked).toBe(0);
    expect((await fetch(`${base}/oauth/revoke`, { method: "POST", body: new URLSearchParams({ token: "t" }) })).status).toBe(200);
    expect(revoked).toBe(1);
  });

  // RFC 6749 3.1: "Request and response parameters MUST NOT be included more than once"; 2.3: "The client
  // MUST NOT use more than one authentication method in each request." Both 400 invalid_request, core not asked.
  it("refuses a repeated OAuth parameter and client credentials sent twice (Basic and form) with 400 invalid_request", async () => {
    let issued = 0;
    let revoked = 0;
    const base = gatewayWith((router) => router.service(AuthService, { issueToken: () => (issued++, { accessToken: "a", tokenType: "Bearer", expiresIn: 60n }), revokeToken: () => (revoked++, {}) }));
    const post = (path: string, form: string, headers: Record<string, string> = {}) =>
      globalThis.fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: form });
    const twice = await post("/oauth/token", "grant_type=password&grant_type=refresh_token&username=a&password=b");
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({ error: "invalid_request", key: "oauth.error.invalid_request", details: {} });
    const basic = `Basic ${Buffer.from("client:secret").toString("base64")}`;
    const both = await post("/oauth/token", "grant_type=client_credentials&client_id=client", { authorization: basic });
    expect([both.status, ((await both.json()) as { error: string }).error]).toEqual([400, "invalid_request"]);
    expect((await post("/oauth/revoke", "token=a&token=b")).status).toBe(400);
    expect([issued, revoked]).toEqual([0, 0]);
    expect((await post("/oauth/token", "grant_type=client_credentials", { authorization: basic })).status).toBe(200);
    expect(issued).toBe(1);
  });

  // A caller's own data (a new 2FA secret among it) must not be kept by a cache.
  it("marks API answers Cache-Control: no-store", async () => {
    const base = gatewayWith((router) => router.service(CustomerService, { listCustomers: () => ({ content: [] }) }));
    const res = await fetch(`${base}/api/customer`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  // A JSON answer (success or error, whose message may echo the caller's input) is never sniffed into HTML.
  it("marks every answer X-Content-Type-Options: nosniff (200 and errors)", async () => {
    const base = gatewayWith((router) => router.service(CustomerService, { listCustomers: () => ({ content: [] }) }));
    for (const [path, status] of [["/api/customer", 200], ["/api/<script>", 404]] as const) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(status);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });

  // README: "the API routes' JSON answers carry Cache-Control: no-store", error answers too: a cached
  // 404 would hide a resource created a moment later, a cached 401/403 outlive the caller's new token.
  it("marks error answers Cache-Control: no-store too (404, 401, 400)", async () => {
    const base = gatewayWith((router) =>
      router.service(CustomerService, {
        listCustomers: () => {
          throw new ConnectError("no", Code.Unauthenticated);
        },
      }),
    );
    for (const [path, init, status] of [
      ["/api/nothing-here", {}, 404],
      ["/api/customer", {}, 401],
      ["/api/customer", { method: "POST", headers: { "content-type": "application/json" }, body: "[1]" }, 400],
    ] as const) {
      const res = await fetch(`${base}${path}`, init as RequestInit);
      expect(res.status, path).toBe(status);
      expect(res.headers.get("cache-control"), `${status} ${path}`).toBe("no-store");
    }
  });

  // Bad input gets a clear 4xx naming where it is: a JSON body that is not an object says so.
  it("names the request body when it is JSON but not an object", async () => {
    const base = gatewayWith(() => {});
    const res = await fetch(`${base}/api/customer`, { method: "POST", headers: { "content-type": "application/json" }, body: "[1]" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: "Request body must be a JSON object", details: { where: "Request body" } });
  });
});
