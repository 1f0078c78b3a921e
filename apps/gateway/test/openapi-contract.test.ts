// What an API consumer's client relies on beyond the shapes (review of /openapi.json): nulls the
// gateway renders, the error statuses, the page cap, the streamed media types and the security.
import { describe, expect, it } from "vitest";
import { allFiles } from "@signage/contracts";
import { DEFAULT_MAX_PAGE_SIZE } from "@signage/query";
import { buildRouteTable } from "../src/routes/route-table.js";
import { unbuiltOperations } from "../src/routes/unbuilt-routes.js";
import { generateOpenApi } from "../src/openapi/generate.js";

type Json = Record<string, any>;
const routes = buildRouteTable(allFiles);
const doc = generateOpenApi(routes, {}, unbuiltOperations(routes)) as Json;
const op = (path: string, verb: string): Json => doc.paths[path][verb];
const param = (o: Json, name: string): Json | undefined => o.parameters.find((p: Json) => p.name === name);

describe("OpenAPI: fields rendered null", () => {
  // "parentId | string | null only for the root folder": response-renderer.ts writes null for a (null_when_unset) field.
  it("types a null_when_unset field nullable (the root folder's parentId, an unlimited storage size)", () => {
    const schemas = doc.components.schemas;
    expect(schemas["signage.media.v1.FileFolder"].properties.parentId).toEqual({ type: ["string", "null"] });
    expect(schemas["signage.media.v1.FileFolder"].properties.name).toEqual({ type: "string" });
    const storage = Object.values(schemas).find((s: any) => s.properties?.totalAvailableStorageSize) as Json;
    expect(storage.properties.totalAvailableStorageSize).toEqual({ type: ["integer", "null"], format: "int64" });
  });
});

describe("OpenAPI: error responses derived from the route", () => {
  const statuses = (o: Json) => Object.keys(o.responses);

  it("a list with parameters and a role above the lowest declares 400, 401 and 403 with the ErrorBody", () => {
    const list = op("/api/customer", "get");
    expect(statuses(list)).toEqual(expect.arrayContaining(["200", "400", "401", "403", "default"]));
    expect(statuses(list)).not.toContain("404");
    expect(list.responses["401"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ErrorBody" });
  });

  it("an operation with a path id declares 404; a public one no 401 or 403", () => {
    expect(statuses(op("/api/customer/{id}", "put"))).toEqual(expect.arrayContaining(["400", "401", "403", "404"]));
    const token = op("/oauth/token", "post");
    expect(statuses(token)).not.toContain("401");
    for (const o of Object.values(doc.paths).flatMap((item: any) => Object.values(item)) as Json[]) {
      if (o["x-min-role"] === "PUBLIC") expect(statuses(o), o.operationId).not.toContain("401");
    }
  });

  it("an operation with a body declares 415 (JSON bodies and uploads alike); one without does not", () => {
    expect(statuses(op("/api/customer", "post"))).toContain("415");
    expect(statuses(op("/api/file", "post"))).toContain("415");
    expect(statuses(op("/api/customer", "get"))).not.toContain("415");
  });

  it("an unbuilt operation keeps its 501", () => {
    expect(statuses(op("/api/v2/device", "get"))).toEqual(["501", "default"]);
  });
});

describe("OpenAPI: page-size cap", () => {
  // libs/query paging lowers any size above the cap; a list without max_page_size has the default cap.
  it("declares the default cap as the maximum of size on the customer list", () => {
    expect(param(op("/api/customer", "get"), "size")!.schema).toMatchObject({ minimum: 1, maximum: DEFAULT_MAX_PAGE_SIZE, default: 20 });
    expect(DEFAULT_MAX_PAGE_SIZE).toBe(1000);
  });
});

describe("OpenAPI: streamed and raw bodies as the services take them", () => {
  it("POST /api/file is multipart with files[] (binary array) and previews[]", () => {
    const content = op("/api/file", "post").requestBody.content;
    expect(Object.keys(content)).toEqual(["multipart/form-data"]);
    expect(content["multipart/form-data"].schema.properties).toEqual({
      "files[]": { type: "array", items: { type: "string", format: "binary" } },
      "previews[]": { type: "array", items: { type: "string", format: "binary" } },
    });
  });

  it("thumbnails take images, packages ZIPs (raw or the part `file`)", () => {
    expect(Object.keys(op("/api/v2/file/upload/{fileId}/thumbnail", "put").requestBody.content)).toContain("image/*");
    const pkg = op("/api/customApp/myApps/{id}/upload", "post").requestBody.content;
    expect(Object.keys(pkg)).toEqual(["multipart/form-data", "application/zip", "application/x-zip-compressed"]);
    expect(pkg["multipart/form-data"].schema.required).toEqual(["file"]);
  });

  it("downloads declare what they serve; 206 only where Range reaches the service", () => {
    const pkg = op("/api/customApp/myApps/{id}/download", "get").responses;
    expect(Object.keys(pkg["200"].content)).toEqual(["application/zip"]);
    expect(pkg).not.toHaveProperty("206");
    expect(pkg).toHaveProperty("404");
    const blob = op("/storage/v1/blobs/{blob}", "get").responses;
    expect(Object.keys(blob["206"].content)).toEqual(["*/*"]);
  });

  it("the profile picture is a multipart upload and an image download, not JSON", () => {
    expect(Object.keys(op("/api/v2/user/profilePicture", "post").requestBody.content)).toEqual(["multipart/form-data"]);
    expect(Object.keys(op("/api/v2/user/profilePicture", "get").responses["200"].content)).toEqual(["image/*"]);
  });
});

describe("OpenAPI: security", () => {
  it("offers an oauth2 scheme (password, client credentials) at /oauth/token beside bearer", () => {
    const { bearer, oauth2 } = doc.components.securitySchemes;
    expect(bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(oauth2.flows.password).toMatchObject({ tokenUrl: "/oauth/token", refreshUrl: "/oauth/token" });
    expect(oauth2.flows.clientCredentials).toMatchObject({ tokenUrl: "/oauth/token" });
    expect(doc.security).toEqual([{ bearer: [] }, { oauth2: [] }]);
  });

  it("a sensitive operation declares the x-totp and CAPTCHA headers; others do not", () => {
    const remove = op("/api/customer/{id}", "delete");
    expect(param(remove, "x-totp")).toMatchObject({ in: "header", required: false });
    expect(param(remove, "g-recaptcha-response")).toMatchObject({ in: "header" });
    expect(param(op("/api/customer", "get"), "x-totp")).toBeUndefined();
  });

  it("an unbuilt operation the documents make public needs no token", () => {
    expect(op("/public-api/integration/webhooks", "post").security).toEqual([]);
    expect(op("/api/v2/device", "get").security).toBeUndefined();
  });
});

describe("OpenAPI: user roles", () => {
  // "PUBLIC is not a user role" (core user-rules.ts answers 400 user.error.invalidRole); DEVICE_USER is one.
  it("types User.role and UserFields.role without PUBLIC", () => {
    for (const name of ["signage.core.v1.User", "signage.core.v1.UserFields"]) {
      const role = doc.components.schemas[name].properties.role;
      expect(role.enum, name).not.toContain("PUBLIC");
      expect(role.enum, name).toEqual(expect.arrayContaining(["DEVICE_USER", "VIEWER", "ADMIN"]));
    }
  });
});

describe("OpenAPI: list parameters a list takes", () => {
  // libs/query refuses selectTeamIds on a resource without team assignments ("not supported by the customer list").
  it("declares team selection only on lists whose rows have teamAssignments", () => {
    for (const path of ["/api/customer", "/api/team/", "/api/customApp/myApps"]) {
      expect(param(op(path, "get"), "selectTeamIds"), path).toBeUndefined();
      expect(param(op(path, "get"), "includeResourcesWithoutTeam"), path).toBeUndefined();
      expect(param(op(path, "get"), "page"), path).toBeDefined();
    }
    expect(param(op("/api/v2/user", "get"), "selectTeamIds")).toBeDefined();
    expect(param(op("/api/v2/file", "get"), "includeResourcesWithoutTeam")).toBeDefined();
  });
});

describe("OpenAPI: operations in the contract that answer 501 until built", () => {
  // (signage.options.v1.not_built): a contract-only service's methods, cloud-drive sync.
  it.each([
    ["/api/config/limits", "get"],
    ["/api/statistics/system/dashboard", "get"],
    ["/api/fileFolder/addSyncedAlphaDriveFolder", "post"],
    ["/api/fileFolder/gammaFolders", "get"],
  ])("%s %s is marked x-not-implemented and declares 501, no success response", (path, verb) => {
    const o = op(path, verb);
    expect(o["x-not-implemented"]).toBe(true);
    expect(Object.keys(o.responses)).toContain("501");
    expect(Object.keys(o.responses).filter((s) => s.startsWith("2"))).toEqual([]);
    expect(o.description).toMatch(/^Not built yet \(.+\): answers 501\./);
  });

  it("a built operation keeps its success response and no mark", () => {
    const o = op("/api/v2/fileFolder", "get");
    expect(o["x-not-implemented"]).toBeUndefined();
    expect(Object.keys(o.responses)).toContain("200");
    expect(Object.keys(o.responses)).not.toContain("501");
  });
});
