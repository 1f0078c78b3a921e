// The blob download's Range and If-None-Match reach the service from the request's headers
// (streaming/download-route.ts): the document lists them there, not as query parameters the
// gateway would ignore.
import { allFiles } from "@signage/contracts";
import { describe, expect, it } from "vitest";
import { buildRouteTable, generateOpenApi, unbuiltOperations } from "../src/index.js";

describe("OpenAPI: header-filled download fields", () => {
  it("lists Range and If-None-Match as optional headers of GET /storage/v1/blobs/{blob}, and neither as a query parameter", () => {
    const routes = buildRouteTable(allFiles);
    const document = generateOpenApi(routes, {}, unbuiltOperations(routes)) as { paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string; required: boolean }> }>> };
    const parameters = document.paths["/storage/v1/blobs/{blob}"].get.parameters;
    expect(parameters.filter((p) => p.in === "header")).toEqual([
      expect.objectContaining({ name: "Range", required: false }),
      expect.objectContaining({ name: "If-None-Match", required: false }),
    ]);
    expect(parameters.filter((p) => p.in === "query").map((p) => p.name)).toEqual(["expires", "filename", "contentType", "signature"]);
  });

  it("publishes a private app's file route as /api/customApp/files/{token}/{path} (no `=**`): PUBLIC, Range and If-None-Match headers, no query", () => {
    const routes = buildRouteTable(allFiles);
    const document = generateOpenApi(routes, {}, unbuiltOperations(routes)) as { paths: Record<string, Record<string, { security?: unknown[]; parameters: Array<{ name: string; in: string; required: boolean }> }>> };
    expect(Object.keys(document.paths).filter((p) => p.includes("=**"))).toEqual([]);
    const op = document.paths["/api/customApp/files/{token}/{path}"].get;
    expect(op.security).toEqual([]);
    expect(op.parameters.filter((p) => p.in === "path").map((p) => p.name)).toEqual(["token", "path"]);
    expect(op.parameters.filter((p) => p.in === "header").map((p) => p.name)).toEqual(["Range", "If-None-Match"]);
    expect(op.parameters.filter((p) => p.in === "query")).toEqual([]);
  });
});
