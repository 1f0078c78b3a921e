// A security reviewer's sweep over EVERY served REST operation of core + media. Passes: tenant
// B's OWNER and VIEWER with every id tenant A's; B's OWNER on its own resources with one id at a
// time (query parameter or body part) tenant A's; another network owner's OWNER with selector A,
// its own member, or none. None may answer 2xx with A's ids (echoes of the request aside),
// change A's rows or rows naming A's ids (checked in the database), or answer 5xx (501
// *NotImplemented aside). Also: without a token every non-PUBLIC operation is 401, a caller one
// role below the route's min role is 403. Data-driven: the routes come from the descriptors
// (buildRouteTable), parameters are filled by name from FILL, bodies from BODY (`{}` otherwise);
// a new route is swept automatically, and a path parameter FILL cannot fill fails loudly.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import yazl from "yazl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allFiles } from "@signage/contracts";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { buildRouteTable, unbuiltOperations, type RestRoute } from "@signage/gateway";
import { createCustomer, createUser, eventually, startPlatform, TEST_ADMIN, type HttpResponse, type TenantUser, type TestPlatform } from "@signage/testing";

const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const SERVED_PACKAGES = ["signage.core.", "signage.media."];
const MARK = `sweepA${Math.random().toString(36).slice(2, 8)}`;

let platform: TestPlatform;
let blobRoot: string;
type Ids = Record<string, any>;
/** Tenant A's resources (and tenant B's own, for the mixed pass), by what they are. */
const A: Ids = {};
const B: Ids = {};
let bOwner: TenantUser;
let bViewer: TenantUser;
/** The OWNER of a network owner tenant N (not A's network) and N's member tenant M. */
let nOwner: TenantUser;
let memberId: number;
const bByRole = new Map<Role, TenantUser>();

const key = (r: RestRoute) => `${r.verb} ${r.template.pattern}`;
const routes = buildRouteTable(allFiles);
const unbuilt = unbuiltOperations(routes);
const served = routes.filter((r) => SERVED_PACKAGES.some((p) => r.service.typeName.startsWith(p)));
const notStarted = routes.filter((r) => !served.includes(r));

/** Operations not sent with tenant A's ids, with the reason. */
const SKIPPED: Record<string, string> = {
  "DELETE /api/user/myAccount": "acts on the caller only (no tenant-A parameter); would delete tenant B's own sweeping user",
  "POST /api/customer": "creates a new tenant: no tenant-A parameter to fill (its 401/403 are in the checks below; ownerSubresellerId is covered through PUT /api/customer/{id})",
  "GET /storage/v1/blobs/{blob}": "PUBLIC, authorised by an HMAC signature over the key, not by tenant; a forged signature is checked separately below",
  "PUT /storage/v1/parts/{upload_id}/{part_number}": "PUBLIC, authorised by an HMAC signature, not by tenant; a forged signature is checked separately below",
  "GET /api/customApp/files/{token}/{path=**}": "PUBLIC, authorised by an HMAC signature over the package root, not by tenant; a forged signature is checked separately below",
};

/** How each request field is filled with a tenant's ids (by the field's JSON name; `id` depends on the path). */
const FILL: Record<string, (r: RestRoute, I: Ids) => string | number | undefined> = {
  customerId: (_r, I) => I.customerId,
  subresellerId: (_r, I) => I.customerId,
  id: (r, I) => {
    const p = r.template.pattern;
    if (p.startsWith("/api/customer/")) return I.customerId;
    if (p.startsWith("/api/customApp/")) return I.appId;
    if (p.startsWith("/api/quickFilter/")) return I.quickFilterId;
    if (p.startsWith("/api/team/")) return I.teamId;
    if (p.startsWith("/api/v2/userInterfaceProfile/")) return I.profileId;
    if (p.startsWith("/api/{resource}/")) return I.quickFilterId;
    return undefined;
  },
  fileId: (_r, I) => I.fileId,
  fileIdToReplace: (_r, I) => I.fileId,
  sourceFileId: (_r, I) => I.file2Id,
  folderId: (_r, I) => I.folderId,
  fileFolderId: (_r, I) => I.folderId,
  parentId: (_r, I) => I.folderId,
  quickFilterId: (_r, I) => I.quickFilterId,
  teamId: (_r, I) => I.teamId,
  teamIds: (_r, I) => `${I.teamId}:false`,
  selectTeamIds: (_r, I) => I.teamId,
  includeResourcesWithoutTeam: () => "true",
  includeReadOnlyInfo: () => "true",
  select: (r) => (r.template.pattern === "/api/tag" ? "fileTags" : r.method.input.fields.some((f) => f.message?.name === "ListQuery") ? "*" : undefined),
  uploadId: (_r, I) => I.uploadId,
  partNumber: (_r, I) => 1,
  email: (_r, I) => I.userEmail,
  resource: (_r, I) => "quickFilter",
  resourceType: (r, I) => (r.template.pattern.includes("update{") ? "File" : "file"),
  resourceId: (_r, I) => I.fileId,
  tag: (_r, I) => I.tag,
  tagType: (_r, I) => "FILE",
  search: (r, I) => (r.template.pattern.startsWith("/api/v2/file/") && r.verb !== "GET" ? `id=${I.fileId}` : undefined),
  folderSearch: (_r, I) => `id=${I.folderId}`,
  fileSearch: (_r, I) => `id=${I.fileId}`,
  credentialId: (_r, I) => "credential-of-a",
  // Emergency content is a device content (no content service yet): "null" clears the caller's own.
  defaultEmergencyContentId: () => "null",
  cleanupOutdatedFiles: (_r, I) => "true",
  autoSync: (_r, I) => "true",
  entity: (_r, I) => "FILE",
  oldPassword: (_r, I) => "not-the-password",
  newPassword: (_r, I) => "password-456",
  newName: (_r, I) => "renamed-by-B",
  name: (_r, I) => "made-by-B",
  keyword: (_r, I) => MARK.slice(0, 4),
  teamAssignmentMode: (_r, I) => "MERGE",
  blob: (_r, I) => `customers/${I.customerId}/x`,
  token: () => "forged.1.signature",
  path: () => "index.html",
};

/** Minimal valid bodies, by operation; JSON `{}` otherwise. A function builds multipart bodies. */
/** `I`: the ids of the body; `slot(name)`: the ids of one part of it (a mixed request makes each part foreign alone, as "body.<name>"). */
const BODY: Record<string, (I: Ids, slot: (name: string) => Ids) => unknown> = {
  "POST /api/file": (I) => pngForm("files[]"),
  "PUT /api/v2/file/upload/{file_id}/thumbnail": (I) => pngForm("file"),
  "POST /api/customApp/myApps/{id}/upload": () => zipForm(ZIP!),
  "PUT /api/v2/file/upload/{upload_id}/part/{part_number}": (I) => Buffer.from("part-by-B"),
  "POST /api/customApp/myApps": (I) => ({ name: "B app" }),
  "PUT /api/customApp/myApps/{id}": (I) => ({ name: "renamed-by-B", customerId: I.customerId }),
  "PUT /api/customer/{id}": (I) => ({ name: "renamed-by-B", ownerSubresellerId: I.customerId }),
  "PUT /api/customer/settings/teams": (I) => ({}),
  "POST /api/fileFolder/moveBatchToFolder": (_I, slot) => ({ fileIds: [slot("items").fileId], folderIds: [slot("items").subFolderId], targetFolder: { id: slot("target").folderId } }),
  "POST /api/fileFolder/addSyncedAlphaDriveFolder": (I) => SYNC_SETTINGS,
  "POST /api/fileFolder/addSyncedBetaDriveFolder": (I) => SYNC_SETTINGS,
  "POST /api/fileFolder/addSyncedGammaFolder": (I) => SYNC_SETTINGS,
  "PUT /api/fileFolder/updateSyncedAlphaDriveFolder": (I) => SYNC_SETTINGS,
  "PUT /api/fileFolder/updateSyncedBetaDriveFolder": (I) => SYNC_SETTINGS,
  "POST /api/fileFolder/removeBatch": (_I, slot) => ({ fileIds: [slot("files").fileId], folderIds: [slot("folders").subFolderId] }),
  "PUT /api/fileFolder/setIgnoredSubfolders": (I) => [I.subFolderId],
  "POST /api/file/updateTeamAssignments": (I) => ({ assignToTeams: [{ teamId: I.teamId, readOnly: false }] }),
  "POST /api/fileFolder/updateTeamAssignments": (I) => ({ assignToTeams: [{ teamId: I.teamId, readOnly: false }] }),
  "POST /api/user/updateTeamAssignments": (I) => ({ assignToTeams: [{ teamId: I.teamId, readOnly: false }] }),
  "POST /api/{resource}/updateTeamAssignments": (I) => ({ assignToTeams: [{ teamId: I.teamId, readOnly: false }] }),
  "PUT /api/team/update{resource_type}Assignments": (_I, slot) => ({ resourcesToAdd: [{ id: slot("add").fileId, readOnly: true }], resourceIdsToRemove: [slot("remove").file2Id] }),
  "POST /api/quickFilter/": (I) => ({ name: "B filter", filteredEntityType: "FILE", criteria: { tags: ["x"] } }),
  "PUT /api/quickFilter/": (I) => ({ name: "renamed-by-B" }),
  "POST /api/tag": () => ({ tag: "madebyb", comment: "by B" }),
  "PUT /api/tag": (I) => ({ tag: "renamedbyb", comment: "by B" }),
  "POST /api/team/": (I) => ({ name: "B team" }),
  "PUT /api/team/": (I) => ({ name: "renamed-by-B" }),
  "POST /api/user/": (I) => ({ email: I.userEmail, name: "B", role: "VIEWER", password: "password-123" }),
  "PUT /api/user/": (I) => ({ name: "renamed-by-B" }),
  "POST /api/user/password": (I) => undefined,
  "PUT /api/file/{file_id}": (I) => ({ name: "renamed-by-B.png" }),
  "POST /api/v2/file/tags/add": (I) => ["tag-by-b"],
  "POST /api/v2/file/tags/remove": (I) => [I.tag],
  "POST /api/v2/file/tags/set": (I) => ["tag-by-b"],
  "POST /api/v2/file/upload/init": (I) => ({ name: "b.mp4", size: 10, totalChunks: 1, contentType: "video/mp4", parentId: I.folderId }),
  "POST /api/v2/userInterfaceProfile": (I) => ({ name: "B UI", hiddenUIElementRules: { version: "2.1" } }),
  "PUT /api/v2/userInterfaceProfile/{id}": (I) => ({ name: "renamed-by-B", hiddenUIElementRules: { version: "2.1" } }),
  "POST /api/v2/userInterfaceProfile/{id}/assign": (_I, slot) => ({ assignUserIds: [slot("assign").userId], removeUserIds: [slot("remove").userId] }),
  "POST /api/v2/user/profilePicture": (I) => pngForm("file"),
};

const SYNC_SETTINGS = { alphaCredentialId: "c", alphaFolderId: "f", fileTypes: ["IMAGE"], betaTenantId: "t", driveId: "d", betaDriveFolderId: "f", gammaCredentialId: "c", gammaFolderId: "f" };

function pngForm(field: string): FormData {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(PNG_1X1)], { type: "image/png" }), "b.png");
  return form;
}

function zipForm(zip: Buffer): FormData {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(zip)], { type: "application/zip" }), "package.zip");
  return form;
}

async function zipOf(files: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Path variables that name no resource. */
const NOT_IDS = new Set(["resource", "resourceType", "partNumber"]);
/** Query fields that carry a resource id (a foreign one must be refused). */
const ID_FIELDS = new Set(["selectTeamIds", "fileId", "fileIdToReplace", "sourceFileId", "folderId", "fileFolderId", "parentId", "quickFilterId", "teamId", "teamIds", "uploadId", "email", "id", "resourceId", "subresellerId", "defaultEmergencyContentId", "folderSearch", "fileSearch", "search"]);

/** Where tenant A's ids go: everywhere, or only into one parameter (its name, or "body"), the rest being tenant B's own. */
type Variant = { foreign: string; /** Overrides the customerId selector; null drops it. */ customerId?: number | null };

/** The id parameters of `route` a mixed request can make foreign one at a time. */
function idParamsOf(route: RestRoute): string[] {
  const names = route.template.variables.map((v) => v.param).filter((n) => !NOT_IDS.has(n));
  const queryFields = route.method.input.fields.flatMap((f) => (f.fieldKind === "message" && f.name !== route.body && route.body !== "*" ? f.message.fields : [f]));
  for (const f of queryFields) {
    if (ID_FIELDS.has(f.jsonName) && !names.includes(f.jsonName) && f.name !== route.body && route.body !== "*" && FILL[f.jsonName]?.(route, A) !== FILL[f.jsonName]?.(route, B)) names.push(f.jsonName);
  }
  const build = BODY[key(route)];
  if (build && A.customerId) {
    const slots: string[] = [];
    const plain = JSON.stringify(build(A, (name) => (slots.push(name), A)));
    if (slots.length) names.push(...[...new Set(slots)].map((n) => `body.${n}`));
    else if (plain !== JSON.stringify(build(B, () => B))) names.push("body");
  }
  return names;
}

function requestOf(route: RestRoute, variant: Variant = { foreign: "all" }): { path: string; query: Record<string, string | number>; body: unknown } {
  const pathNames = new Set(route.template.variables.map((v) => v.param));
  const idsOf = (name: string) => (variant.foreign === "all" || variant.foreign === "plain" || variant.foreign === name || (name.startsWith("body.") && variant.foreign === "body") ? A : B);
  let path = route.template.pattern;
  for (const v of route.template.variables) {
    const value = FILL[v.param]?.(route, idsOf(v.param));
    if (value === undefined) throw new Error(`${key(route)}: no FILL for path parameter ${v.param}`);
    path = path.replace(new RegExp(`\\{${v.field.name}(=[^}]*)?\\}`), encodeURIComponent(String(value)));
  }
  const query: Record<string, string | number> = {};
  // A non-body message field (the list query) is sent as its fields (`?page=&search=&quickFilterId=`).
  // "plain": the list query without ids (the bare list must not contain A's rows either).
  const queryFields = route.method.input.fields.flatMap((f) => (f.fieldKind === "message" && f.name !== route.body && route.body !== "*" ? (variant.foreign === "plain" ? [] : f.message.fields) : [f]));
  for (const field of queryFields) {
    if (pathNames.has(field.jsonName) || field.name === route.body || route.body === "*") continue;
    if (field.fieldKind === "message") continue;
    const value = FILL[field.jsonName]?.(route, idsOf(field.jsonName));
    if (value !== undefined) query[field.jsonName] = value;
  }
  if (variant.customerId === null) delete query.customerId;
  else if (variant.customerId !== undefined && route.method.input.fields.some((f) => f.jsonName === "customerId")) query.customerId = variant.customerId;
  const build = BODY[key(route)];
  const body = build ? build(idsOf("body"), (name) => idsOf(`body.${name}`)) : route.body ? {} : undefined;
  return { path, query, body };
}

async function call(route: RestRoute, token: string | undefined, variant?: Variant): Promise<HttpResponse> {
  const { path, query, body } = requestOf(route, variant);
  const headers: Record<string, string> = body instanceof Buffer ? { "content-type": "application/octet-stream" } : {};
  return platform.http.request(route.verb, path, { token, query, body, headers });
}

/** Numeric ids repeat across tables: where an answer's `id`s are of one kind, tenant A's id of that kind. */
const NUMERIC_IDS: [prefix: string, name: string][] = [["/api/customApp/", "appId"], ["/api/v2/userInterfaceProfile", "profileId"], ["/api/customer", "customerId"]];

/** Tenant A's ids as they could appear in an answer. */
function leaksOf(text: string, request: string, path = ""): string[] {
  const found: string[] = [];
  for (const [prefix, name] of NUMERIC_IDS) {
    if (!path.startsWith(prefix)) continue;
    const ids = [...text.matchAll(/"id":(\d+)[,}]/g)].map((m) => Number(m[1]));
    if (ids.includes(A[name]) && !request.includes(`/${A[name]}`)) found.push(`${name}=${A[name]}`);
  }
  for (const [name, value] of Object.entries(A)) {
    // A value the caller sent itself may be echoed back (its own tag of the same name, a reference it set).
    if (typeof value === "string" && request.includes(value)) continue;
    if (typeof value === "string" && value.length >= 8 && text.includes(value)) found.push(`${name}=${value}`);
    // Small numeric ids repeat across tenants: A's customer id is looked for as a customerId, the others as an `id` beside it.
    if (name === "customerId" && new RegExp(`"customerId":${value}[,}]`).test(text)) found.push(`${name}=${value}`);
  }
  return found;
}

/** Bookkeeping tables (migrations, outbox/inbox of the event bus, token store): not tenant data a caller may change. */
const IGNORED_TABLES = /^knex_|outbox|inbox|processed|refresh_token/i;

let A_IDS: string[] = [];
let TABLES: { service: "core" | "media"; table: string; tenantColumns: string[] }[] = [];

/**
 * Tenant A's data in core's and media's schemas: every row of tenant A, and every row of anyone
 * that names one of A's ids (an assignment, a parent, a reference), keyed by table.
 */
async function snapshot(): Promise<Map<string, string>> {
  if (!TABLES.length) {
    for (const service of ["core", "media"] as const) {
      const knex = platform.knexOf(service);
      const cols: { table_name: string; column_name: string }[] = (
        await knex.raw(`select c.table_name, c.column_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name) where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`)
      ).rows;
      for (const table of new Set(cols.map((c) => c.table_name))) {
        if (IGNORED_TABLES.test(table)) continue;
        const has = (c: string) => cols.some((x) => x.table_name === table && x.column_name === c);
        const tenantColumns = cols.filter((c) => c.table_name === table && /(^|_)(customer|subreseller)_id$/.test(c.column_name)).map((c) => c.column_name);
        if (table === "customer") tenantColumns.push("id");
        TABLES.push({ service, table, tenantColumns });
      }
    }
  }
  const entries = await Promise.all(
    TABLES.map(async ({ service, table, tenantColumns }) => {
      const rows: Record<string, unknown>[] = await platform.knexOf(service)(table).select();
      const mine = rows
        .map((r) => JSON.stringify(r))
        .filter((text, i) => tenantColumns.some((c) => Number(rows[i][c]) === A.customerId) || A_IDS.some((id) => text.includes(id)))
        .sort();
      return [`${service}.${table}`, JSON.stringify(mine)] as const;
    }),
  );
  return new Map(entries);
}

function diff(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((t) => before.get(t) !== after.get(t));
}

/** 501 with a *NotImplemented key is the documented "not built yet" answer (cloud-drive sync), not a failure. */
const isAllowed5xx = (res: HttpResponse) => res.status === 501 && /notImplemented$/i.test(res.body?.key ?? "");
const ok = (res: HttpResponse) => res.status >= 200 && res.status < 300;
const expectOk = (res: HttpResponse, what: string) => {
  if (!ok(res)) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
};

/** One of every resource the operations touch, in the tenant of `t` (an OWNER), into `I`. */
async function seed(admin: string, customerId: number, t: string, I: Ids, mark: string): Promise<void> {
  const http = platform.http;
  I.customerId = customerId;
  const user = await createUser(http, admin, customerId, "VIEWER");
  I.userEmail = user.email;
  I.userId = (await http.get("/api/v2/user/me", { token: user.token })).body.id;
  const roots = await eventually(() => http.get("/api/v2/fileFolder", { token: t, query: { search: "parentId=NULL" } }), (r) => r.body.content?.length === 1, "root folder");
  I.rootId = roots.body.content[0].id;
  I.teamId = expectOk(await http.post("/api/team/", { token: t, body: { name: `${mark} team` } }), "team").id;
  I.folderId = expectOk(await http.post("/api/fileFolder/", { token: t, query: { parentId: I.rootId, name: `${mark} folder` } }), "folder").id;
  I.subFolderId = expectOk(await http.post("/api/fileFolder/", { token: t, query: { parentId: I.folderId, name: `${mark} sub` } }), "sub folder").id;
  I.tag = `${mark}tag`;
  for (const name of ["one.png", "two.png"]) {
    const form = new FormData();
    form.append("files[]", new Blob([new Uint8Array(PNG_1X1)], { type: "image/png" }), `${mark}-${name}`);
    const up = expectOk(await http.post("/api/file", { token: t, body: form, query: { parentId: I.folderId, tags: I.tag, teamIds: `${I.teamId}:false` } }), "file");
    I[name === "one.png" ? "fileId" : "file2Id"] = up[0].id;
  }
  I.quickFilterId = expectOk(await http.post("/api/quickFilter/", { token: t, body: { name: `${mark} filter`, filteredEntityType: "FILE", criteria: { tags: [I.tag] } } }), "quick filter").id;
  I.filteredFolderId = expectOk(await http.post("/api/fileFolder/addFilteredFileFolder", { token: t, query: { parentId: I.folderId, name: `${mark} filtered`, quickFilterId: I.quickFilterId } }), "filtered folder").id;
  I.profileId = expectOk(await http.post("/api/v2/userInterfaceProfile", { token: t, body: { name: `${mark} UI`, hiddenUIElementRules: { version: "2.1" } } }), "UI profile").id;
  ZIP ??= await zipOf({ "config.json": JSON.stringify({ name: "sweep-widget", version: "1.0.0" }), "index.html": "<html>a</html>" });
  I.appId = expectOk(await http.post("/api/customApp/myApps", { token: t, body: { name: `${mark} app` } }), "app").id;
  expectOk(await http.post(`/api/customApp/myApps/${I.appId}/upload`, { token: t, body: zipForm(ZIP) }), "app package");
  I.uploadId = expectOk(await http.post("/api/v2/file/upload/init", { token: t, body: { name: `${mark}.mp4`, size: 10, totalChunks: 1, contentType: "video/mp4" } }), "upload session").uploadId;
  // Core's tag map follows media's events; wait until the tag is known there.
  await eventually(() => http.get("/api/tag", { token: t, query: { select: "fileTags" } }), (r) => r.text.includes(I.tag), "tag in core");
}

let ZIP: Buffer | undefined;

beforeAll(async () => {
  blobRoot = await mkdtemp(join(tmpdir(), "sweep-blobs-"));
  platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "sweep", env: { STORAGE_URL: pathToFileURL(blobRoot).href } });
  const http = platform.http;
  const admin = await http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const a = await createCustomer(http, admin, { name: `${MARK} customer` });
  const b = await createCustomer(http, admin);
  for (const role of [Role.DEVICE_USER, Role.VIEWER, Role.EDITOR, Role.APPROVER, Role.TECHNICIAN, Role.OWNER]) bByRole.set(role, await createUser(http, admin, b.id, Role[role]));
  bOwner = bByRole.get(Role.OWNER)!;
  bViewer = bByRole.get(Role.VIEWER)!;
  const aOwner = await createUser(http, admin, a.id, "OWNER");
  A.ownerEmail = aOwner.email;
  const network = await createCustomer(http, admin, { createAsSubreseller: true });
  nOwner = await createUser(http, admin, network.id, "OWNER");
  memberId = expectOk(await http.post("/api/customer", { token: nOwner.token, body: { name: "sweep member", licenseTier: "STARTER" } }), "member customer").id;
  await Promise.all([seed(admin, a.id, aOwner.token, A, MARK), seed(admin, b.id, bOwner.token, B, "sweepB")]);
  A_IDS = Object.values(A).filter((v): v is string => typeof v === "string" && v.length >= 20);
}, 60_000);

afterAll(async () => {
  await platform?.close();
  if (blobRoot) await rm(blobRoot, { recursive: true, force: true });
}, 30_000);

describe("tenant-isolation sweep over every served REST operation", () => {
  it("lists what is swept and skipped", () => {
    const swept = served.filter((r) => !SKIPPED[key(r)]);
    console.log(
      `route table: ${routes.length} operations; swept ${swept.length}; skipped ${served.length - swept.length + notStarted.length}; unbuilt (501) ${unbuilt.length}\n` +
        `swept:\n  ${swept.map(key).join("\n  ")}\n` +
        `skipped:\n  ${[...served.filter((r) => SKIPPED[key(r)]).map((r) => `${key(r)}: ${SKIPPED[key(r)]}`), ...notStarted.map((r) => `${key(r)}: service ${r.service.typeName} not in the core+media platform (501)`)].join("\n  ")}`,
    );
    expect(swept.length).toBeGreaterThan(50);
  });

  // Deletions last, so the operations before them still find tenant B's own resources.
  const ordered = served.filter((r) => !SKIPPED[key(r)]).sort((x, y) => Number(x.verb === "DELETE") - Number(y.verb === "DELETE"));
  const PASSES = [
    { who: "OWNER", mixed: false, title: "tenant B's OWNER, every id tenant A's" },
    { who: "VIEWER", mixed: false, title: "tenant B's VIEWER, every id tenant A's" },
    { who: "OWNER", mixed: true, title: "tenant B's OWNER on its own resources, one id at a time tenant A's" },
    { who: "NETWORK", mixed: false, title: "another network owner's OWNER (selector A, its member, none), every id tenant A's" },
  ] as const;
  for (const pass of PASSES) {
    it(`${pass.title}: never sees nor changes tenant A's data, never 5xx`, async () => {
      const token = (pass.who === "OWNER" ? bOwner : pass.who === "NETWORK" ? nOwner : bViewer).token;
      const findings: string[] = [];
      const statuses: string[] = [];
      for (const route of ordered) {
        const hasListQuery = route.method.input.fields.some((f) => f.message?.name === "ListQuery");
        let variants: Variant[] = pass.mixed ? idParamsOf(route).map((foreign) => ({ foreign })) : hasListQuery ? [{ foreign: "all" }, { foreign: "plain" }] : [{ foreign: "all" }];
        if (pass.who === "NETWORK") variants = variants.flatMap((v) => [v, { ...v, customerId: memberId }, { ...v, customerId: null }]);
        for (const variant of variants) {
          const write = route.verb !== "GET";
          const before = write ? await snapshot() : undefined;
          const res = await call(route, token, variant);
          const req = requestOf(route, variant);
          const sent = req.body && !(req.body instanceof FormData) && !(req.body instanceof Buffer) ? ` ${JSON.stringify(req.body)}` : "";
          const what = `${key(route)}${variant.foreign !== "all" ? ` [${variant.foreign === "plain" ? "plain" : `A's ${variant.foreign}`}]` : ""}${variant.customerId !== undefined ? ` [customerId ${variant.customerId ?? "none"}]` : ""} ${req.path}?${new URLSearchParams(req.query as any)}${sent} -> ${res.status}`;
          statuses.push(`${what} ${ok(res) ? "" : res.body?.key ?? ""}`);
          if (res.status >= 500 && !isAllowed5xx(res)) findings.push(`${what} (5xx) ${res.text.slice(0, 200)}`);
          if (ok(res)) {
            const leaks = leaksOf(res.text, what, req.path);
            if (leaks.length) findings.push(`${what} reveals ${leaks.join(", ")}`);
          }
          if (before) {
            const changed = diff(before, await snapshot());
            if (changed.length) findings.push(`${what} changed tenant A's ${changed.join(", ")}`);
          }
        }
      }
      console.log(`${pass.title}: ${statuses.length} requests\n  ${statuses.join("\n  ")}`);
      expect(findings, findings.join("\n")).toEqual([]);
    });
  }

  it("the detectors see tenant A's own data and changes (self-check of the sweep)", async () => {
    const aOwner = await platform.http.login(A.ownerEmail, "password-123");
    const files = await platform.http.get("/api/v2/file", { token: aOwner });
    expect(leaksOf(files.text, "")).toContain(`fileId=${A.fileId}`);
    const apps = await platform.http.get("/api/customApp/myApps", { token: aOwner });
    expect(leaksOf(apps.text, "", "/api/customApp/myApps")).toContain(`appId=${A.appId}`);
    const before = await snapshot();
    expect((await platform.http.post("/api/file/rename", { token: aOwner, query: { fileId: A.file2Id, newName: "self-check.png" } })).status).toBe(204);
    expect(diff(before, await snapshot())).toContain("media.file");
  });

  it("without a token every non-PUBLIC operation is 401", async () => {
    const findings: string[] = [];
    for (const route of served) {
      const res = await call(route, undefined);
      if (route.minRole === Role.PUBLIC) {
        if (res.status >= 500 && !isAllowed5xx(res)) findings.push(`${key(route)} (PUBLIC) -> ${res.status}`);
      } else if (res.status !== 401) findings.push(`${key(route)} -> ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(findings, findings.join("\n")).toEqual([]);
  });

  it("a caller one role below the operation's min role is 403", async () => {
    const findings: string[] = [];
    let checked = 0;
    for (const route of served) {
      const below = route.minRole === Role.ADMIN ? Role.OWNER : ((route.minRole - 1) as Role);
      const user = bByRole.get(below);
      if (!user || route.minRole <= Role.DEVICE_USER) continue;
      checked++;
      const res = await call(route, user.token);
      if (res.status !== 403) findings.push(`${key(route)} as ${Role[below]} -> ${res.status} ${res.text.slice(0, 120)}`);
    }
    console.log(`role check: ${checked} operations below their min role`);
    expect(findings, findings.join("\n")).toEqual([]);
  });

  it("PUBLIC storage routes refuse a forged signature (4xx)", async () => {
    const blob = await platform.http.get(`/storage/v1/blobs/${encodeURIComponent("customers/" + A.customerId + "/x")}`, { query: { expires: String(Date.now() + 60_000), signature: "forged" } });
    expect(blob.status, blob.text).toBeGreaterThanOrEqual(400);
    expect(blob.status, blob.text).toBeLessThan(500);
    const part = await platform.http.put(`/storage/v1/parts/${A.uploadId}/1`, { query: { expires: String(Date.now() + 60_000), maxSize: "10", signature: "forged" }, body: Buffer.from("x"), headers: { "content-type": "application/octet-stream" } });
    expect(part.status, part.text).toBeGreaterThanOrEqual(400);
    expect(part.status, part.text).toBeLessThan(500);
    const [appRoot] = (await platform.knexOf("media")("custom_app").where({ id: A.appId }).pluck("app_root_path")) as string[];
    const appFile = await platform.http.get(`/api/customApp/files/${Buffer.from(appRoot).toString("base64url")}.${Date.now() + 60_000}.forged/index.html`);
    expect([appFile.status, appFile.body.key], appFile.text).toEqual([403, "storage.error.invalidSignature"]);
  });
});
