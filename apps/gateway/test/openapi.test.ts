// Plain unit test of the OpenAPI document against what the gateway renders: "Response Page:
// first, last, number, numberOfElements, totalElements, totalPages, size, content" and
// "`page` (int, default 0, zero-based), `size` (int, default 20; the endpoint may impose a lower cap)".
import { describe, expect, it } from "vitest";
import { file_signage_media_v1_file } from "@signage/contracts/signage/media/v1/file_pb";
import { allFiles } from "@signage/contracts";
import { buildRouteTable } from "../src/routes/route-table.js";
import { unbuiltOperations } from "../src/routes/unbuilt-routes.js";
import { DEFAULT_PAGE_SIZE } from "@signage/query";
import { DOCUMENTED_PAGE_SIZE, generateOpenApi } from "../src/openapi/generate.js";
import { getOption } from "@bufbuild/protobuf";
import { not_built } from "@signage/contracts/signage/options/v1/options_pb";

type Operation = { parameters: { name: string; schema: Record<string, unknown> }[]; responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }> };

const spec = generateOpenApi(buildRouteTable([file_signage_media_v1_file])) as { paths: Record<string, Record<string, Operation>> };
const listFiles = spec.paths["/api/v2/file"].get;

describe("OpenAPI list operations", () => {
  it("document the Page exactly as rendered (no internal selectedFields)", () => {
    const page = listFiles.responses["200"].content["application/json"].schema;
    expect(Object.keys(page.properties).sort()).toEqual(["content", "first", "last", "number", "numberOfElements", "size", "totalElements", "totalPages"]);
  });

  it("document page and size with their defaults and the cap", () => {
    const param = (name: string) => listFiles.parameters.find((p) => p.name === name)!.schema;
    expect(param("page")).toMatchObject({ type: "integer", minimum: 0, default: 0 });
    expect(param("size")).toMatchObject({ type: "integer", minimum: 1, default: 20 });
    expect(param("size").description).toMatch(/At most \d+ rows per page/);
    expect(param("size").maximum).toBeGreaterThanOrEqual(param("size").default as number);
    // The documented default is the one lists apply.
    expect(DOCUMENTED_PAGE_SIZE).toBe(DEFAULT_PAGE_SIZE);
  });

  it("the summary's own page and size are documented alike", () => {
    const summary = spec.paths["/api/v2/file/view/summary"].get;
    const param = (name: string) => summary.parameters.find((p) => p.name === name)!.schema;
    expect(param("page")).toMatchObject({ minimum: 0, default: 0 });
    expect(param("size")).toMatchObject({ minimum: 1, default: 20 });
  });
});

// What a client generated from /openapi.json relies on, over the whole route table.
describe("OpenAPI document for generated clients", async () => {
  const { allFiles } = await import("@signage/contracts");
  type Op = { operationId: string; parameters: { name: string; in: string; schema: Record<string, unknown> }[]; responses: Record<string, unknown>; security?: unknown[] };
  const full = generateOpenApi(buildRouteTable(allFiles)) as { paths: Record<string, Record<string, Op>>; components: { schemas: Record<string, { required?: string[] }> } };
  const ops = Object.values(full.paths).flatMap((item) => Object.values(item));

  // Every error is rendered with all five fields (error-body.ts): a client must not type them optional.
  it("requires every field of the error body", () => {
    expect(full.components.schemas.ErrorBody.required?.sort()).toEqual(["details", "error", "key", "message", "status"]);
  });

  // OpenAPI 3.1 4.8.10: operationId is unique among all operations (client method names).
  it("gives every operation a unique operationId", () => {
    const ids = ops.map((op) => op.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  // The gateway takes an int64 path or query value as digits, and a JS client must send one past
  // 2^53 as a string: the schema admits both, or a generated client would force a lossy number.
  it("types int64 path and query parameters as integer or digit string", () => {
    const customerId = full.paths["/api/customer"].get.parameters.find((p) => p.name === "customerId")!.schema;
    expect(customerId).toMatchObject({ type: ["integer", "string"], format: "int64", pattern: "^-?[0-9]+$" });
    const id = full.paths["/api/customer/{id}"].put.parameters.find((p) => p.name === "id")!.schema;
    expect(id.type).toEqual(["integer", "string"]);
    for (const op of ops) for (const p of op.parameters) if (p.schema.format === "int64") expect(p.schema.type, `${op.operationId} ${p.name}`).toEqual(["integer", "string"]);
  });

  // The documents name each operation ("List files (Page of File)"); /docs shows those names, and the
  // RPC's only for operations the documents do not show.
  it("summarises documented operations with the documents' own names", () => {
    const summary = (path: string, verb: string) => (full.paths[path][verb] as unknown as { summary: string }).summary;
    expect(summary("/api/v2/file", "get")).toBe("List files (Page of File)");
    expect(summary("/api/customer", "post")).not.toBe("CreateCustomer");
    expect(summary("/api/v2/fileFolder/breadcrumb", "get")).toBe("GetFileFolderBreadcrumb");
  });

  // The token, revoke and health edges are part of what a client calls: documented, without bearer security.
  it("documents /oauth/token, /oauth/revoke, /healthz and /readyz as public operations", () => {
    for (const [path, verb] of [["/oauth/token", "post"], ["/oauth/revoke", "post"], ["/healthz", "get"], ["/readyz", "get"]] as const) {
      const op = full.paths[path]?.[verb];
      expect(op, path).toBeDefined();
      expect(op.security, path).toEqual([]);
    }
    expect(JSON.stringify(full.paths["/oauth/token"].post)).toContain("application/x-www-form-urlencoded");
  });
});

describe("OpenAPI: documented operations not built yet", () => {
  // They answer 501 (unbuilt-routes.ts); the document lists them as such, so a client generated from
  // it sees the whole API and knows which operations it cannot call yet.
  const routes = buildRouteTable(allFiles);
  const full = generateOpenApi(routes, {}, unbuiltOperations(routes)) as { paths: Record<string, Record<string, Record<string, unknown> & { parameters: { name: string; in: string }[] }>> };
  const operations = Object.entries(full.paths).flatMap(([path, ops]) => Object.entries(ops).map(([verb, op]) => ({ path, verb, op })));

  it("lists each with x-not-implemented, its summary and a 501 response; served operations are not marked", () => {
    const devices = full.paths["/api/v2/device"].get;
    expect(devices).toMatchObject({ summary: "List devices", "x-not-implemented": true, tags: ["core"] });
    expect(Object.keys(devices.responses as object)).toEqual(["501", "default"]);
    // The unbuilt documented operations, plus the served RPCs the contract marks (signage.options.v1.not_built).
    const markedRpcs = routes.filter((r) => getOption(r.method, not_built) !== "").length;
    expect(markedRpcs).toBeGreaterThan(0);
    expect(operations.filter(({ op }) => op["x-not-implemented"])).toHaveLength(unbuiltOperations(routes).length + markedRpcs);
    expect(full.paths["/api/v2/user/me"].get["x-not-implemented"]).toBeUndefined();
  });

  it("keeps operationIds unique, declares every path parameter, and spells a shared path one way (OpenAPI 3.1 4.8.8)", () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, verb, op } of operations) {
      for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) expect(op.parameters.some((p) => p.in === "path" && p.name === name), `${verb} ${path} {${name}}`).toBe(true);
    }
    const shapes = Object.keys(full.paths).map((path) => path.replace(/\{[^}]+\}/g, "{}"));
    expect(new Set(shapes).size).toBe(shapes.length);
  });
});
