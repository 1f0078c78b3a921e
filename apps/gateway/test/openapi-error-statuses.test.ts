// /openapi.json declares the outcomes the documents give: "Package identity already used in the
// customer's effective catalog | HTTP 409", "Other upload outcomes preserved by the service | 400,
// 401, 403, 404, 413, 415, 507" (document 1, Errors), the gateway's own 413 past its JSON cap and
// 416 of a range past the end, each with the common error body; its 403 text follows "Other roles
// | own tenant | own tenant" (document 2, Customer scoping); and "PUT /api/file/{fileId} | JSON:
// name, validFrom (ms), validTo (ms), tags (array)" is typed, not `{}`.
import { describe, expect, it } from "vitest";
import { Int64ValueSchema, StringValueSchema } from "@bufbuild/protobuf/wkt";
import { allFiles } from "@signage/contracts";
import { buildRouteTable } from "../src/routes/route-table.js";
import { unbuiltOperations } from "../src/routes/unbuilt-routes.js";
import { generateOpenApi } from "../src/openapi/generate.js";
import { SchemaRegistry } from "../src/openapi/schemas.js";

type Json = Record<string, any>;
const routes = buildRouteTable(allFiles);
const doc = generateOpenApi(routes, {}, unbuiltOperations(routes)) as Json;
const op = (path: string, verb: string): Json => doc.paths[path][verb];
const operations = (): Json[] => Object.values(doc.paths).flatMap((item: any) => Object.values(item)) as Json[];
const ERROR_BODY = { $ref: "#/components/schemas/ErrorBody" };

function expectErrorStatuses(o: Json, statuses: string[]) {
  for (const status of statuses) {
    expect(o.responses[status], `${o.operationId} ${status}`).toBeDefined();
    expect(o.responses[status].content["application/json"].schema, `${o.operationId} ${status}`).toEqual(ERROR_BODY);
  }
}

describe("OpenAPI: documented error statuses", () => {
  it("the package upload declares 409 (package identity already used)", () => {
    const upload = op("/api/customApp/myApps/{id}/upload", "post");
    expectErrorStatuses(upload, ["400", "401", "403", "404", "409", "413", "415", "507"]);
    expect(upload.responses["409"].description).toMatch(/identity/);
  });

  it("409 is the package upload's own: other uploads do not declare it", () => {
    expect(op("/api/file", "post").responses).not.toHaveProperty("409");
    expect(op("/api/v2/file/upload/{fileId}/thumbnail", "put").responses).not.toHaveProperty("409");
  });

  it("POST /api/file declares every upload outcome: 400, 401, 403, 404, 413, 415, 507", () => {
    expectErrorStatuses(op("/api/file", "post"), ["400", "401", "403", "404", "413", "415", "507"]);
  });

  it("the chunk part route declares 413 and 507 beside its 404 and 415", () => {
    expectErrorStatuses(op("/api/v2/file/upload/{uploadId}/part/{partNumber}", "put"), ["404", "413", "415", "507"]);
  });

  it("every operation with a JSON body declares 413 (request.error.tooLarge past the gateway's cap)", () => {
    const withJson = operations().filter((o) => o.requestBody?.content?.["application/json"]);
    expect(withJson.length).toBeGreaterThan(20);
    for (const o of withJson) expectErrorStatuses(o, ["413", "415"]);
    expect(op("/api/customer", "post").responses["413"].description).toMatch(/request\.error\.tooLarge/);
  });

  it("an operation without a body declares no 413, 415 or 507", () => {
    for (const status of ["413", "415", "507"]) expect(op("/api/customer", "get").responses).not.toHaveProperty(status);
  });

  it("a download that takes Range declares 416; one that ignores Range does not", () => {
    expectErrorStatuses(op("/storage/v1/blobs/{blob}", "get"), ["404", "416"]);
    expect(op("/api/customApp/myApps/{id}/download", "get").responses).not.toHaveProperty("416");
  });

  it("the 403 text is true of the customer scoping: other roles naming another customer get their own tenant", () => {
    for (const o of operations()) {
      const forbidden = o.responses?.["403"];
      if (!forbidden) continue;
      expect(forbidden.description, o.operationId).not.toMatch(/customerId naming another customer is refused/);
    }
    const selector = op("/api/v2/file", "get").responses["403"].description;
    expect(selector).toMatch(/own tenant/);
    expect(selector).toMatch(/network owner/);
    // ADMIN only, no selector: the role alone.
    expect(op("/api/config/limits", "get").responses["403"].description).not.toMatch(/customerId/);
  });
});

describe("OpenAPI: google.protobuf Value and wrapper fields typed", () => {
  const fileUpdate = doc.components.schemas["signage.media.v1.FileUpdate"];

  it("PUT /api/file/{fileId} takes FileUpdate", () => {
    expect(op("/api/file/{fileId}", "put").requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/signage.media.v1.FileUpdate" });
  });

  it("FileUpdate: validFrom and validTo are Unix ms (number or digits) or null; tags an array of strings", () => {
    for (const bound of ["validFrom", "validTo"]) {
      expect(fileUpdate.properties[bound], bound).toMatchObject({ type: ["integer", "string", "null"], format: "int64", pattern: "^-?[0-9]+$" });
    }
    expect(fileUpdate.properties.tags).toMatchObject({ type: "array", items: { type: "string" } });
  });

  it("no FileUpdate field is left as an empty schema", () => {
    for (const [name, schema] of Object.entries(fileUpdate.properties as Record<string, Json>)) {
      expect(Object.keys(schema), name).toContain("type");
      if (schema.type === "array") expect(Object.keys(schema.items), name).toContain("type");
    }
  });

  it("a customer's storageSize is bytes or null (unlimited)", () => {
    expect(doc.components.schemas["signage.core.v1.CustomerFields"].properties.storageSize).toMatchObject({ type: ["integer", "string", "null"], minimum: 0 });
  });

  it("wrapper types map to their JSON type", () => {
    const schemas = new SchemaRegistry();
    expect(schemas.ref(Int64ValueSchema)).toMatchObject({ type: ["integer", "string"], format: "int64" });
    expect(schemas.ref(StringValueSchema)).toEqual({ type: "string" });
  });
});
