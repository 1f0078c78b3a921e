// Plain unit test of the OpenAPI document against what the gateway renders: "Response Page:
// first, last, number, numberOfElements, totalElements, totalPages, size, content" and
// "`page` (int, default 0, zero-based), `size` (int, default 20; the endpoint may impose a lower cap)".
import { describe, expect, it } from "vitest";
import { file_signage_media_v1_file } from "@signage/contracts/signage/media/v1/file_pb";
import { buildRouteTable } from "../src/routes/route-table.js";
import { DEFAULT_PAGE_SIZE } from "@signage/query";
import { DOCUMENTED_PAGE_SIZE, generateOpenApi } from "../src/openapi/generate.js";

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
    expect(param("size")).not.toHaveProperty("maximum");
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
