// Inputs the document marks "(req)" / "(required)", or shows in the operation's path
// ("POST /api/file/rename?fileId=<id>&newName=<name>"), carry
// `(google.api.field_behavior) = REQUIRED` in the contract. Two promises follow from it and are
// checked here for every media route, from the descriptors (nothing listed by hand): /openapi.json
// marks each one required, and a call missing only that one is refused with 400 and the
// documented error body, never served with a default.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScalarType, type DescField } from "@bufbuild/protobuf";
import type { RestRoute } from "@signage/gateway";
import { bodyMessage, requiredInBody, requiredQuery, routesOf } from "@signage/testing";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let t: Tenant;
let values: Record<string, string>;

const mediaRoutes = routesOf("signage.media.");

beforeAll(async () => {
  lib = await startLibrary("media_required_inputs");
  t = await lib.tenant();
  const folder = await lib.folder(t, t.rootId, `req-${randomUUID()}`);
  const [file, other] = [await lib.file(t, { fileFolderId: folder.id }), await lib.file(t, { fileFolderId: folder.id })];
  const qf = await lib.http.post("/api/quickFilter/", { token: t.owner.token, body: { name: `qf-${randomUUID()}`, filteredEntityType: "FILE", criteria: {} } });
  expect(qf.status, qf.text).toBe(200);
  // A well-formed value for every required input: ids of this tenant's own folder and files.
  values = {
    parentId: folder.id,
    folderId: folder.id,
    fileFolderId: folder.id,
    fileId: file.id,
    fileIdToReplace: file.id,
    sourceFileId: other.id,
    name: `n-${randomUUID()}`,
    newName: `renamed-${randomUUID()}`,
    quickFilterId: qf.body.id,
    autoSync: "true",
    cleanupOutdatedFiles: "true",
    credentialId: "credential-1",
    exportFormat: "PDF",
    exportStrategy: "ALL",
    size: "1000",
    totalChunks: "1",
  };
}, 60_000);
afterAll(() => lib?.close());

function valueOf(field: DescField): string | number {
  const value = values[field.jsonName];
  if (value === undefined) throw new Error(`no test value for the required input ${field.jsonName}: add one`);
  const numeric = field.fieldKind === "scalar" && ![ScalarType.STRING, ScalarType.BOOL, ScalarType.BYTES].includes(field.scalar);
  return numeric ? Number(value) : value;
}

function call(route: RestRoute, query: Record<string, string | number>, body?: Record<string, unknown>) {
  const path = route.template.pattern;
  expect(path, "routes with required inputs have no path variables here").not.toMatch(/\{/);
  if (route.verb === "PATCH") throw new Error("no PATCH route expected");
  const send = { GET: lib.http.get, POST: lib.http.post, PUT: lib.http.put, DELETE: lib.http.delete }[route.verb];
  return send(path, { token: t.owner.token, query, ...(body ? { body } : {}) });
}

describe("required inputs ('(req)', '(required)', or shown in the path)", () => {
  it("the document's marked inputs carry the REQUIRED field behaviour", () => {
    const marked = new Set(mediaRoutes.flatMap((r) => [...requiredQuery(r), ...requiredInBody(r)].map((f) => `${r.verb} ${r.template.pattern} ${f.jsonName}`)));
    // "Replace file across all usages | PUT /api/file/replaceFileReference | ... query fileIdToReplace (required), sourceFileId (required)"
    expect(marked).toContain("PUT /api/file/replaceFileReference fileIdToReplace");
    expect(marked).toContain("PUT /api/file/replaceFileReference sourceFileId");
    // "Init ... JSON: name (req, string), size (req, int64 ...), totalChunks (req, int, 1..10000)"
    for (const f of ["name", "size", "totalChunks"]) expect(marked).toContain(`POST /api/v2/file/upload/init ${f}`);
    // "Create filtered folder ... query parentId (req), name (req), quickFilterId (req), teamIds"
    for (const f of ["parentId", "name", "quickFilterId"]) expect(marked).toContain(`POST /api/fileFolder/addFilteredFileFolder ${f}`);
    expect(marked).not.toContain("POST /api/fileFolder/addFilteredFileFolder teamIds");
    // "Create | POST /api/customApp/myApps | JSON: name (req, non-empty), description, ..."
    expect(marked).toContain("POST /api/customApp/myApps name");
    expect(marked).not.toContain("PUT /api/file/replaceFileReference removeOldFile");
  });

  it("/openapi.json marks exactly those query parameters required", async () => {
    const spec = (await lib.http.get("/openapi.json")).body;
    for (const route of mediaRoutes) {
      const params = (spec.paths[route.template.pattern]?.[route.verb.toLowerCase()]?.parameters ?? []) as { name: string; in: string; required: boolean }[];
      const required = params.filter((p) => p.in === "query" && p.required).map((p) => p.name).sort();
      expect(required, `${route.verb} ${route.template.pattern}`).toEqual(requiredQuery(route).map((f) => f.jsonName).sort());
    }
    expect(spec.components.schemas["signage.media.v1.InitUploadBody"].required).toEqual(["name", "size", "totalChunks"]);
    expect(spec.components.schemas["signage.media.v1.CreateMyAppFields"].required).toEqual(["name"]);
  });

  const cases = mediaRoutes.flatMap((route) => {
    const query = requiredQuery(route);
    const inBody = requiredInBody(route);
    return [...query.map((missing) => ({ route, missing, where: "query" as const })), ...inBody.map((missing) => ({ route, missing, where: "body" as const }))];
  });

  it.each(cases.map((c) => [`${c.route.verb} ${c.route.template.pattern} without ${c.missing.jsonName}`, c] as const))("%s: 400 naming it", async (_title, { route, missing, where }) => {
    const query = Object.fromEntries(requiredQuery(route).filter((f) => f !== missing).map((f) => [f.jsonName, valueOf(f)]));
    const body = bodyMessage(route) ? Object.fromEntries(requiredInBody(route).filter((f) => f !== missing).map((f) => [f.jsonName, valueOf(f)])) : undefined;
    const res = await call(route, query, body);
    expect([res.status, typeof res.body?.key], `${where} ${missing.jsonName}: ${res.text}`).toEqual([400, "string"]);
    // Refused for the missing input itself, not for another one (the sync routes refuse a folder that is not synced, too).
    const named = JSON.stringify(res.body.details ?? {}).includes(`"${missing.jsonName}"`) || new RegExp(`\\b${missing.jsonName}\\b`, "i").test(res.body.message);
    expect(named, `the answer names ${missing.jsonName}: ${res.text}`).toBe(true);
  });
});

