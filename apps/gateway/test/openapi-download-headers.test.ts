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
});
