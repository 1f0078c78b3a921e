// In-memory level: the text a request carries reaches the service as the client wrote it, or is
// refused. Document 2: "The interface is REST over HTTP; management calls live under `/api/` with
// bearer authorization and JSON bodies unless stated otherwise." JSON text "MUST be encoded using
// UTF-8" (RFC 8259 8.1) and a query's escapes are UTF-8 bytes (RFC 3986 2.5). Bytes that are not
// UTF-8 (a Latin-1 `café`) used to be turned into U+FFFD and stored: `caf\uFFFD`, and two different
// names collided on it. Now they are refused before the service is called.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRouterTransport } from "@connectrpc/connect";
import { allFiles } from "@signage/contracts";
import { CustomerService, type CreateCustomerRequest } from "@signage/contracts/signage/core/v1/customer_pb";
import { FileFolderService, type CreateFileFolderRequest } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { FileService, type ListFilesRequest } from "@signage/contracts/signage/media/v1/file_pb";
import { createGateway, upstreamsByPackage } from "../src/index.js";
import { bearerFetch as fetch } from "./support/bearer-fetch.js";

const silent = { info() {}, warn() {}, error() {}, debug() {} };
const customers: CreateCustomerRequest[] = [];
const folders: CreateFileFolderRequest[] = [];
const lists: ListFilesRequest[] = [];
let base = "";
let close: () => Promise<unknown>;

beforeAll(() => {
  const transport = createRouterTransport((router) => {
    router.service(CustomerService, { createCustomer: (req) => (customers.push(req), { customer: { id: 1n, name: req.customer?.name } }) });
    router.service(FileFolderService, { createFileFolder: (req) => (folders.push(req), { folder: { id: "f", name: req.name } }) });
    router.service(FileService, { listFiles: (req) => (lists.push(req), {}) });
  });
  const upstreams = upstreamsByPackage({ core: transport, media: transport, integration: transport, reporting: transport, licensing: transport });
  const server = createGateway({ files: allFiles, upstreams, logger: silent }).app.listen(0);
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  close = () => new Promise((r) => server.close(r));
});
afterAll(() => close());

const ERROR_KEYS = ["details", "error", "key", "message", "status"];
const latin1Cafe = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
const postCustomer = (body: RequestInit["body"], headers: Record<string, string>) => fetch(`${base}/api/customer`, { method: "POST", headers, body });

describe("'management calls live under /api/ with bearer authorization and JSON bodies': JSON is UTF-8 (RFC 8259 8.1)", () => {
  it("a body whose bytes are not UTF-8 is 400 request.error.invalidJson; nothing is created", async () => {
    const before = customers.length;
    const res = await postCustomer(latin1Cafe, { "content-type": "application/json" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(ERROR_KEYS);
    expect(body).toMatchObject({ status: 400, error: "Bad Request", key: "request.error.invalidJson" });
    expect(body.message).toMatch(/UTF-8/);
    expect(customers.length).toBe(before);
  });

  it("a charset other than UTF-8 is 415 request.error.unsupportedMediaType; nothing is created", async () => {
    const before = customers.length;
    for (const charset of ["iso-8859-1", "utf-16le", "windows-1252"]) {
      const res = await postCustomer(latin1Cafe, { "content-type": `application/json; charset=${charset}` });
      expect(res.status, charset).toBe(415);
      expect(await res.json()).toMatchObject({ status: 415, key: "request.error.unsupportedMediaType" });
    }
    expect(customers.length).toBe(before);
  });

  it("a compressed body (Content-Encoding the gateway does not apply) is 415, not 'not valid JSON'", async () => {
    const res = await postCustomer(JSON.stringify({ name: "zipped" }), { "content-type": "application/json", "content-encoding": "gzip" });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ status: 415, key: "request.error.unsupportedMediaType" });
  });

  it("UTF-8 text, with or without charset=utf-8 in any spelling, reaches the service as written", async () => {
    for (const type of ["application/json", "application/json; charset=utf-8", 'application/json;charset="UTF-8"', "application/json; charset=utf8"]) {
      const res = await postCustomer(Buffer.from(JSON.stringify({ name: `café ${type}` }), "utf8"), { "content-type": type });
      expect(res.status, type).toBe(200);
      expect(customers.at(-1)?.customer?.name).toBe(`café ${type}`);
    }
    const identity = await postCustomer(JSON.stringify({ name: "plain" }), { "content-type": "application/json", "content-encoding": "identity" });
    expect(identity.status).toBe(200);
  });
});

describe("query parameters the operation reads carry UTF-8 escapes (RFC 3986 2.5)", () => {
  it("POST /api/fileFolder/?name=caf%E9: 400 request.error.invalid naming the parameter; nothing is created", async () => {
    const before = folders.length;
    const res = await fetch(`${base}/api/fileFolder/?parentId=root&name=caf%E9`, { method: "POST" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status: 400, key: "request.error.invalid", details: { where: "Query parameter 'name'" } });
    expect(folders.length).toBe(before);
  });

  it("GET /api/v2/file?search=name%3A%C0 (a filter value that is not UTF-8): 400, the list is not run", async () => {
    const before = lists.length;
    const res = await fetch(`${base}/api/v2/file?search=name%3A%C0`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ key: "request.error.invalid", details: { where: "Query parameter 'search'" } });
    expect(lists.length).toBe(before);
  });

  it("UTF-8 escapes, '+' and a lone '%' pass as before; a read still ignores parameters it does not take", async () => {
    const ok = await fetch(`${base}/api/fileFolder/?parentId=root&name=caf%C3%A9+50%`, { method: "POST" });
    expect(ok.status).toBe(200);
    expect(folders.at(-1)?.name).toBe("café 50%");
    const list = await fetch(`${base}/api/v2/file?search=name%3Acaf%25C3%25A9&cachebuster=%E9`);
    expect(list.status).toBe(200);
    expect(lists.at(-1)?.query?.search).toBe("name:caf%C3%A9");
  });
});
