// In-memory level: the gateway's REST <-> RPC transcoding and error mapping,
// against small in-process implementations of the real contracts.
import { describe, expect, it } from "vitest";
import { Code, ConnectError, createRouterTransport } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { allFiles } from "@signage/contracts";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { CustomerService, LicenseTier } from "@signage/contracts/signage/core/v1/customer_pb";
import { ErrorDetailSchema } from "@signage/contracts/signage/common/v1/error_pb";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { createGateway, upstreamsByPackage } from "../src/index.js";
import { bearerFetch as fetch } from "./support/bearer-fetch.js";

const silent = { info() {}, warn() {}, error() {} };

function gatewayWith(register: Parameters<typeof createRouterTransport>[0]) {
  const transport = createRouterTransport(register);
  const upstreams = upstreamsByPackage({ core: transport, media: transport, integration: transport, reporting: transport, licensing: transport });
  const { app, routes } = createGateway({ files: allFiles, upstreams, logger: silent });
  const server = app.listen(0);
  const port = (server.address() as { port: number }).port;
  return { base: `http://127.0.0.1:${port}`, routes, close: () => new Promise((r) => server.close(r)) };
}

describe("gateway transcoding", () => {
  it("builds routes from google.api.http options with the min_role option", async () => {
    const gw = gatewayWith(() => {});
    const route = gw.routes.find((r) => r.verb === "GET" && r.template.pattern === "/api/v2/user/me");
    expect(route?.minRole).toBe(Role.DEVICE_USER);
    expect(gw.routes.find((r) => r.template.pattern === "/api/customer/{id}" && r.verb === "PUT")?.minRole).toBe(Role.OWNER);
    await gw.close();
  });

  it("renders int64 as numbers, enums by short name, response_body and the Page object", async () => {
    let seen: unknown;
    const gw = gatewayWith((router) => {
      router.service(UserService, {
        getMe: () => ({ user: { email: "a@b.c", role: Role.OWNER, lastLogin: 1700000000000n, readOnly: false } }),
      });
      router.service(CustomerService, {
        listCustomers: (req) => {
          seen = req;
          return { content: [{ id: 7n, name: "Acme", licenseTier: LicenseTier.BUSINESS }], page: { number: 0, size: 20, numberOfElements: 1, totalElements: 1n, totalPages: 1, first: true, last: true } };
        },
      });
    });
    const me = await fetch(`${gw.base}/api/v2/user/me`).then((r) => r.json());
    // Outside a Page a repeated field renders even when empty (the service fills it).
    expect(me).toEqual({ email: "a@b.c", role: "OWNER", lastLogin: 1700000000000, readOnly: false, teamAssignments: [] });
    const page = await fetch(`${gw.base}/api/customer?page=0&size=20&sort=name,asc&sort=id,desc&search=name:Ac&customerId=7`).then((r) => r.json());
    // "Response Page: first, last, number, numberOfElements, totalElements, totalPages, size, content."
    expect(page).toEqual({ content: [{ id: 7, name: "Acme", licenseTier: "BUSINESS" }], number: 0, size: 20, numberOfElements: 1, totalElements: 1, totalPages: 1, first: true, last: true });
    expect(seen).toMatchObject({ customerId: 7n, query: { page: 0, size: 20, sort: ["name,asc", "id,desc"], search: "name:Ac" } });
    await gw.close();
  });

  it("maps bad query values to 400 with the error body, naming the parameter", async () => {
    const gw = gatewayWith((router) => router.service(CustomerService, { listCustomers: () => ({}) }));
    const res = await fetch(`${gw.base}/api/customer?page=abc`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string };
    expect(body).toMatchObject({ status: 400, error: "Bad Request", key: "request.error.invalid" });
    expect(body.message).toContain("'page'");
    await gw.close();
  });

  it("an empty number, flag or enum parameter (`?page=&size=`, as forms send it) counts as left out; an empty text parameter stays empty text", async () => {
    let seen: { page?: number; size?: number; search?: string } = {};
    const gw = gatewayWith((router) =>
      router.service(CustomerService, {
        listCustomers: (req) => {
          seen = { page: req.query?.page, size: req.query?.size, search: req.query?.search };
          return {};
        },
      }),
    );
    const res = await fetch(`${gw.base}/api/customer?page=&size=%20&search=`);
    expect(res.status).toBe(200);
    expect(seen).toEqual({ page: undefined, size: undefined, search: "" });
    await gw.close();
  });

  it("maps ConnectError code and ErrorDetail key to status and body", async () => {
    const gw = gatewayWith((router) =>
      router.service(CustomerService, {
        createCustomer: () => {
          throw new ConnectError("Limit reached", Code.ResourceExhausted, undefined, [
            { desc: ErrorDetailSchema, value: create(ErrorDetailSchema, { key: "resourceLimit.error.limitReached", details: { resource: "CUSTOMER", used: 3, limit: 3 } }) },
          ]);
        },
        deleteCustomer: () => {
          throw new ConnectError("not yours", Code.PermissionDenied);
        },
      }),
    );
    // "A create that would exceed a resource limit returns HTTP 400 with key = resourceLimit.error.limitReached and details {resource, used, limit}."
    const res = await fetch(`${gw.base}/api/customer`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "x" }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: 400, error: "Bad Request", message: "Limit reached", key: "resourceLimit.error.limitReached", details: { resource: "CUSTOMER", used: 3, limit: 3 } });
    const del = await fetch(`${gw.base}/api/customer/5`, { method: "DELETE" });
    expect(del.status).toBe(403);
    await gw.close();
  });

  it("a documented 5xx outcome (507 insufficient storage) keeps its message; an unexpected failure's message stays inside", async () => {
    const gw = gatewayWith((router) =>
      router.service(CustomerService, {
        createCustomer: () => {
          throw new ConnectError("Not enough storage: 200 bytes needed, 100 left", Code.ResourceExhausted, undefined, [
            { desc: ErrorDetailSchema, value: create(ErrorDetailSchema, { key: "storage.error.insufficientStorage", details: { storageSize: 100 } }) },
          ]);
        },
        deleteCustomer: () => {
          throw new ConnectError("connection string postgres://secret@db leaked", Code.Internal);
        },
      }),
    );
    const res = await fetch(`${gw.base}/api/customer`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "x" }) });
    expect([res.status, await res.json()]).toEqual([507, { status: 507, error: "Insufficient Storage", message: "Not enough storage: 200 bytes needed, 100 left", key: "storage.error.insufficientStorage", details: { storageSize: 100 } }]);
    const del = await fetch(`${gw.base}/api/customer/5`, { method: "DELETE" });
    // One key spelling for every 500, whether a service or the gateway itself failed.
    expect([del.status, await del.json()]).toEqual([500, { status: 500, error: "Internal Server Error", message: "Internal server error", key: "error.internal", details: {} }]);
    await gw.close();
  });

  it("int64 values outside the 64-bit range, or JSON numbers past 2^53, are 400 naming the parameter, in the path, the query and the body", async () => {
    // "id | integer | numeric id": an id no 64-bit column can hold is bad input, not a service failure.
    const seen: unknown[] = [];
    const gw = gatewayWith((router) =>
      router.service(CustomerService, {
        updateCustomer: (req) => {
          seen.push(req);
          return { customer: { id: req.id } };
        },
        listCustomers: (req) => {
          seen.push(req);
          return {};
        },
      }),
    );
    const put = (path: string, body: string) => fetch(`${gw.base}${path}`, { method: "PUT", headers: { "content-type": "application/json" }, body });
    const refused = async (res: Response, where: string) => {
      const body = (await res.json()) as { key: string; message: string };
      expect([res.status, body.key]).toEqual([400, "request.error.invalid"]);
      expect(body.message).toContain(where);
      return body.message;
    };
    expect(await refused(await put("/api/customer/9223372036854775808", "{}"), "'id'")).toContain("out of range");
    expect(await refused(await put("/api/customer/-9223372036854775809", "{}"), "'id'")).toContain("out of range");
    // JSON.parse turns 1e20 into 100000000000000000000 and 9007199254740993 into ...992: neither is what was sent.
    expect(await refused(await put("/api/customer/1", '{"freeLicenses": 1e20}'), "freeLicenses")).toContain("send it as a string");
    expect(await refused(await put("/api/customer/1", '{"freeLicenses": 9007199254740993}'), "freeLicenses")).toContain("send it as a string");
    expect(await refused(await put("/api/customer/1", '{"freeLicenses": "9223372036854775808"}'), "freeLicenses")).toContain("out of range");
    expect(await refused(await fetch(`${gw.base}/api/customer?customerId=18446744073709551617`), "'customerId'")).toContain("out of range");
    expect(seen).toEqual([]);
    // The extremes themselves, and large values as strings, pass through exactly.
    expect((await put("/api/customer/9223372036854775807", '{"freeLicenses": "9007199254740993"}')).status).toBe(200);
    expect((await put("/api/customer/-9223372036854775808", '{"freeLicenses": 9007199254740991}')).status).toBe(200);
    expect(seen).toMatchObject([
      { id: 9223372036854775807n, customer: { freeLicenses: 9007199254740993n } },
      { id: -9223372036854775808n, customer: { freeLicenses: 9007199254740991n } },
    ]);
    await gw.close();
  });

  it("parses JSON bodies into the body field, rejecting wrong types with 400", async () => {
    let seen: unknown;
    const gw = gatewayWith((router) =>
      router.service(CustomerService, {
        updateCustomer: (req) => {
          seen = req;
          return { customer: { id: req.id, name: req.customer?.name } };
        },
      }),
    );
    const ok = await fetch(`${gw.base}/api/customer/12`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "New", licenseTier: "STARTER", freeLicenses: 3 }) });
    expect(await ok.json()).toEqual({ id: 12, name: "New" });
    expect(seen).toMatchObject({ id: 12n, customer: { name: "New", licenseTier: LicenseTier.STARTER, freeLicenses: 3n } });
    const bad = await fetch(`${gw.base}/api/customer/12`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ licenseTier: "GOLD" }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain("STARTER, BUSINESS, ENTERPRISE");
    const notJson = await fetch(`${gw.base}/api/customer/12`, { method: "PUT", headers: { "content-type": "application/json" }, body: "{" });
    expect(notJson.status).toBe(400);
    // Over the JSON cap (5 MiB): 413 naming the limit, in the message and in details like the upload 413s.
    const huge = await fetch(`${gw.base}/api/customer/12`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ comment: "x".repeat(5 * 1024 * 1024) }) });
    expect([huge.status, await huge.json()]).toEqual([413, { status: 413, error: "Payload Too Large", message: "Request body exceeds 5242880 bytes", key: "request.error.tooLarge", details: { maxBytes: 5242880 } }]);
    await gw.close();
  });

  it("answers 501 for declared but unbuilt operations and 404 with the body for unknown paths", async () => {
    const gw = gatewayWith(() => {});
    const res = await fetch(`${gw.base}/api/config/limits`);
    expect(res.status).toBe(501);
    const missing = await fetch(`${gw.base}/api/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status: 404, key: "error.notFound" });
    await gw.close();
  });

  it("answers 501 naming the operation for documented operations no RPC serves yet (not 404 'No route')", async () => {
    // Ground rule: "An operation not built yet answers 501 with a clear message". Documented
    // operations without an RPC (devices, content, channels ...) answered 404 "No route".
    const gw = gatewayWith((router) => router.service(UserService, { getMe: () => ({ user: { email: "a@b.c" } }) }));
    const list = await fetch(`${gw.base}/api/v2/device?page=0`);
    expect([list.status, await list.json()]).toEqual([
      501,
      { status: 501, error: "Not Implemented", key: "error.notImplemented", message: "GET /api/v2/device (List devices) is documented but not built yet", details: { operation: "List devices", service: "core" } },
    ]);
    const nested = await fetch(`${gw.base}/api/v2/device/42/previewStore`);
    expect([nested.status, ((await nested.json()) as { message: string }).message]).toEqual([501, "GET /api/v2/device/{id}/previewStore (Device preview (screenshot) history) is documented but not built yet"]);
    const tagged = await fetch(`${gw.base}/api/v2/device/tags/add?search=x`, { method: "POST", headers: { "content-type": "application/json" }, body: "[]" });
    expect([tagged.status, ((await tagged.json()) as { details: { operation: string } }).details.operation]).toEqual([501, "Add tags to devices matched by search (only way to tag devices; also batch command tags/add)"]);
    // Served operations are untouched, and an undocumented path is still 404.
    expect((await fetch(`${gw.base}/api/v2/user/me`)).status).toBe(200);
    expect((await fetch(`${gw.base}/api/v2/device-nope`)).status).toBe(404);
    await gw.close();
  });
});

describe("HttpBody-shaped messages", () => {
  it("a multipart upload fills {data, content_type}; a response of that shape is sent as raw bytes", async () => {
    let received: { data: Uint8Array; contentType: string } | undefined;
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const gw = gatewayWith((router) =>
      router.service(UserService, {
        setProfilePicture: (req) => {
          received = { data: req.data, contentType: req.contentType };
          return { user: { email: "me@x.test", hasProfilePicture: true } };
        },
        getProfilePicture: () => ({ data: png, contentType: "image/png" }),
      }),
    );
    const form = new FormData();
    form.append("file", new Blob([png], { type: "image/png" }), "me.png");
    const up = await fetch(`${gw.base}/api/v2/user/profilePicture`, { method: "POST", body: form });
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ email: "me@x.test", hasProfilePicture: true, teamAssignments: [] });
    expect(received?.contentType).toBe("image/png");
    expect(Buffer.from(received!.data).equals(png)).toBe(true);

    const json = await fetch(`${gw.base}/api/v2/user/profilePicture`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(json.status).toBe(415);

    const tooBig = new FormData();
    tooBig.append("file", new Blob([Buffer.alloc(3 * 1024 * 1024)]), "big.png");
    const big = await fetch(`${gw.base}/api/v2/user/profilePicture`, { method: "POST", body: tooBig });
    expect(big.status).toBe(413);

    const down = await fetch(`${gw.base}/api/v2/user/profilePicture?email=me%40x.test`);
    expect(down.headers.get("content-type")).toBe("image/png");
    // Stored bytes are served inert on the API origin (stored-content-headers.ts).
    expect(down.headers.get("x-content-type-options")).toBe("nosniff");
    expect(down.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(Buffer.from(await down.arrayBuffer()).equals(png)).toBe(true);
    await gw.close();
  });
});
