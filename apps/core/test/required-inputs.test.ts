// Inputs the documents mark "(req)" / "(required)", or show in the operation's path
// ("PUT `/api/team/?teamId=<id>`"), carry `(google.api.field_behavior) = REQUIRED` in the
// contract. As for media (apps/media/test/required-inputs.test.ts), two promises follow from it
// and are checked here for every core route, from the descriptors: /openapi.json marks each one
// required, and a call missing only that one is refused with 400 naming it, never served with a
// default (a 404 for '', or a 200 on every tag). A hand-written list of document 2's lines then
// holds the annotations themselves to the document, so a missing one fails too.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import { CustomerFieldsSchema } from "@signage/contracts/signage/core/v1/customer_pb";
import { QuickFilterFieldsSchema } from "@signage/contracts/signage/core/v1/quick_filter_pb";
import { TeamFieldsSchema } from "@signage/contracts/signage/core/v1/team_pb";
import { UserInterfaceProfileFieldsSchema } from "@signage/contracts/signage/core/v1/ui_profile_pb";
import { UserFieldsSchema } from "@signage/contracts/signage/core/v1/user_pb";
import type { RestRoute } from "@signage/gateway";
import { isRequired } from "@signage/platform";
import { bodyMessage, createCustomer, createUser, requiredInBody, requiredQuery, routesOf, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { coreModule } from "../src/module.js";

const coreRoutes = routesOf("signage.core.");
/** The path as /openapi.json keys it (path variables by their parameter name). */
const specPath = (r: RestRoute) => r.template.pattern.replace(/\{([a-zA-Z0-9_]+)\}/g, (_m, name: string) => `{${r.template.variables.find((v) => v.field.name === name)?.param ?? name}}`);

function routeOf(verb: string, pattern: string): RestRoute {
  const route = coreRoutes.find((r) => r.verb === verb && r.template.pattern === pattern);
  if (!route) throw new Error(`core serves no ${verb} ${pattern}`);
  return route;
}
function inputOf(verb: string, pattern: string, jsonName: string): DescField {
  const route = routeOf(verb, pattern);
  const field = [...route.method.input.fields, ...(bodyMessage(route)?.fields ?? [])].find((f) => f.jsonName === jsonName);
  if (!field) throw new Error(`${verb} ${pattern} has no input ${jsonName}`);
  return field;
}

/**
 * Document 2's required or path-shown inputs of core's built operations, each with its line.
 * The customerId selector ("(C)", "Requiredness of customerId is per operation") is never in it:
 * where a path shows it (POST `/api/user/?customerId=<id>...`) it is needed only by some callers
 * ("customerId required for non-ADMIN"), and the handler says so.
 */
const SEED_REQUIRED: { line: string; inputs: [verb: string, path: string, input: string][] }[] = [
  {
    line: "| Default emergency content | PUT `/api/customer/settings/setDefaultContents?defaultEmergencyContentId=<id or null>` | null removes it |",
    inputs: [["PUT", "/api/customer/settings/setDefaultContents", "defaultEmergencyContentId"]],
  },
  {
    line: "| List / create / update / delete team | GET `/api/team/`, POST `/api/team/`, PUT `/api/team/?teamId=<id>`, DELETE `/api/team/{id}` | name, comment |",
    inputs: [["PUT", "/api/team/", "teamId"]],
  },
  {
    line: "| Resources of a team | GET `/api/team/{resourceType}Assignments?teamId=<id>` | IDs with readOnly |",
    inputs: [["GET", "/api/team/{resource_type}Assignments", "teamId"]],
  },
  {
    line: "| Assign from team side | PUT `/api/team/update{ResourceType}Assignments?teamId=<id>` | `resourcesToAdd` [{id, readOnly}], `resourceIdsToRemove` [string] |",
    inputs: [["PUT", "/api/team/update{resource_type}Assignments", "teamId"]],
  },
  {
    line: "GET `/api/tag/suggest?keyword=<prefix>&entity=<TYPE>` (prefix, case-insensitive), POST `/api/tag?tagType=<TYPE>` body {tag, comment}, PUT `/api/tag?tag=<t>&tagType=<TYPE>` body {comment}, DELETE `/api/tag?tag=<t>&tagType=<TYPE>` (refused while in use)",
    inputs: [
      ["GET", "/api/tag/suggest", "keyword"],
      ["GET", "/api/tag/suggest", "entity"],
      ["POST", "/api/tag", "tagType"],
      ["PUT", "/api/tag", "tag"],
      ["PUT", "/api/tag", "tagType"],
      ["DELETE", "/api/tag", "tag"],
      ["DELETE", "/api/tag", "tagType"],
    ],
  },
  { line: "| Update user | PUT `/api/user/?email=<EMAIL>` | any user fields |", inputs: [["PUT", "/api/user/", "email"]] },
  {
    line: "| User team assignments | POST `/api/user/updateTeamAssignments?customerId=<id>&email=<EMAIL>` | assignment body |",
    inputs: [["POST", "/api/user/updateTeamAssignments", "email"]],
  },
  {
    line: "| Password, 2FA | POST `/api/user/password?oldPassword=<p>&newPassword=<p>`; POST `/api/user/2fa?totp=<code>&enable=<bool>` | |",
    inputs: [
      ["POST", "/api/user/password", "oldPassword"],
      ["POST", "/api/user/password", "newPassword"],
      // `totp` is left out: absent in the first step of enabling (the answer carries the secret).
      ["POST", "/api/user/2fa", "enable"],
    ],
  },
  { line: "| Delete user | DELETE `/api/user/?email=<EMAIL>`; self: DELETE `/api/user/myAccount` | |", inputs: [["DELETE", "/api/user/", "email"]] },
  {
    line: "| Quick filters | ..., PUT `/api/quickFilter/?quickFilterId=<id>`, DELETE `/api/quickFilter/?quickFilterId=<id>` | ... |",
    inputs: [
      ["PUT", "/api/quickFilter/", "quickFilterId"],
      ["DELETE", "/api/quickFilter/", "quickFilterId"],
    ],
  },
];

/** Shown in a path or named, but needed only sometimes: never REQUIRED. */
const SOMETIMES: [verb: string, path: string, input: string, why: string][] = [
  ["POST", "/api/user/2fa", "totp", "\"Enabling is two steps\": absent in the first"],
  ["POST", "/api/user/", "customerId", "\"customerId required for non-ADMIN\""],
  ["POST", "/api/user/", "teamIds", "optional team assignment at create"],
  ["POST", "/api/user/updateTeamAssignments", "customerId", "the optional (C) selector; the email names the user"],
  ["GET", "/api/user/simple", "customerId", "needed by an ADMIN only (400 customer.error.customerIdRequired)"],
  ["POST", "/api/quickFilter/", "customerId", "the optional (C) selector"],
  ["POST", "/api/quickFilter/", "teamIds", "optional team assignment at create"],
  ["PUT", "/api/customer/{id}/moveToSubreseller", "subresellerId", "\"without the parameter it removes the customer from its owner\""],
  ["GET", "/api/tag", "select", "\"(optional `select=deviceTags,...`)\""],
  ["GET", "/api/v2/user/profilePicture", "email", "absent: the caller's own picture"],
];

/**
 * Bodies shared by create and update: the document's "(req)" / "required on create" holds for
 * the create only, and an update sends any subset, so these cannot carry REQUIRED (the handlers
 * refuse a create without them).
 */
const SHARED_BODIES: [DescMessage, string][] = [
  [CustomerFieldsSchema, "Create | POST `/api/customer` | name (req), ...; Update | PUT `/api/customer/{id}` | any customer fields"],
  [UserFieldsSchema, "Create user | ... | email, name, role (req), password (unless SSO-only), ...; Update user | PUT `/api/user/?email=<EMAIL>` | any user fields"],
  [TeamFieldsSchema, "Team: name (required on create), comment"],
  [QuickFilterFieldsSchema, "Quick filter: name | required ...; filteredEntityType | ... required; immutable; criteria | required"],
  [UserInterfaceProfileFieldsSchema, "UI profiles: POST (... body name, hiddenUIElementRules both required); PUT `/{id}` (body name and/or hiddenUIElementRules ...)"],
];

describe("the annotations follow document 2", () => {
  it.each(SEED_REQUIRED.map((s) => [s.line, s] as const))("%s", (_line, { inputs }) => {
    for (const [verb, path, input] of inputs) expect(isRequired(inputOf(verb, path, input)), `${verb} ${path} ${input}`).toBe(true);
  });

  it("and nothing else on core's routes is marked: the list above is all of it", () => {
    const marked = coreRoutes.flatMap((r) => [...requiredQuery(r), ...requiredInBody(r)].map((f) => `${r.verb} ${r.template.pattern} ${f.jsonName}`)).sort();
    const listed = SEED_REQUIRED.flatMap((s) => s.inputs.map(([verb, path, input]) => `${verb} ${path} ${input}`)).sort();
    expect(marked).toEqual(listed);
  });

  it.each(SOMETIMES.map(([verb, path, input, why]) => [`${verb} ${path} ${input}: ${why}`, verb, path, input] as const))("not required: %s", (_title, verb, path, input) => {
    expect(isRequired(inputOf(verb, path, input))).toBe(false);
  });

  it.each(SHARED_BODIES.map(([message, line]) => [message.typeName, line, message] as const))("%s (shared by create and update) carries no REQUIRED: %s", (_name, _line, message) => {
    expect(message.fields.filter(isRequired).map((f) => f.jsonName)).toEqual([]);
  });
});

let platform: TestPlatform;
let owner: TenantUser;
let values: Record<string, string>;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], prefix: "core_required_inputs" });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const customerId = (await createCustomer(platform.http, admin)).id;
  owner = await createUser(platform.http, admin, customerId, "OWNER");
  const viewer = await createUser(platform.http, admin, customerId, "VIEWER");
  const team = await platform.http.post("/api/team/", { token: owner.token, body: { name: `team-${randomUUID()}` } });
  expect(team.status, team.text).toBe(200);
  const qf = await platform.http.post("/api/quickFilter/", { token: owner.token, body: { name: `qf-${randomUUID()}`, filteredEntityType: "FILE", criteria: {} } });
  expect(qf.status, qf.text).toBe(200);
  const tag = await platform.http.post("/api/tag", { token: owner.token, query: { tagType: "DEVICE" }, body: { tag: "lobby" } });
  expect(tag.status, tag.text).toBe(200);
  // A well-formed value for every required input: this tenant's own user, team, quick filter and tag.
  values = {
    defaultEmergencyContentId: "null",
    teamId: team.body.id,
    email: viewer.email,
    quickFilterId: qf.body.id,
    oldPassword: owner.password,
    newPassword: "new-password-123",
    enable: "true",
    tag: "lobby",
    tagType: "DEVICE",
    keyword: "lob",
    entity: "DEVICE",
  };
}, 60_000);
afterAll(() => platform?.close());

/** Path variables of the routes with required query inputs ("GET `/api/team/{resourceType}Assignments?teamId=<id>`"). */
const PATH_VALUES: Record<string, string> = { resource_type: "user" };

function valueOf(field: DescField): string | number {
  const value = values[field.jsonName];
  if (value === undefined) throw new Error(`no test value for the required input ${field.jsonName}: add one`);
  return field.fieldKind === "scalar" && /INT|FIXED/.test(String(field.scalar)) ? Number(value) : value;
}

function call(route: RestRoute, query: Record<string, string | number>, body?: Record<string, unknown>) {
  const path = route.template.pattern.replace(/\{([a-zA-Z0-9_]+)\}/g, (_m, name: string) => {
    const value = PATH_VALUES[name];
    if (value === undefined) throw new Error(`no test value for the path variable ${name}: add one`);
    return route.template.pattern.includes(`update{${name}}`) ? value.charAt(0).toUpperCase() + value.slice(1) : value;
  });
  const send = { GET: platform.http.get, POST: platform.http.post, PUT: platform.http.put, DELETE: platform.http.delete, PATCH: platform.http.post }[route.verb];
  return send(path, { token: owner.token, query, ...(body ? { body } : {}) });
}

describe("required inputs of core's routes ('(req)', '(required)', or shown in the path)", () => {
  it("/openapi.json marks exactly the annotated query parameters required, and no required body field in the shared bodies", async () => {
    const spec = (await platform.http.get("/openapi.json")).body;
    for (const route of coreRoutes) {
      const params = (spec.paths[specPath(route)]?.[route.verb.toLowerCase()]?.parameters ?? []) as { name: string; in: string; required: boolean }[];
      expect(spec.paths[specPath(route)]?.[route.verb.toLowerCase()], `${route.verb} ${specPath(route)} is in the spec`).toBeDefined();
      const required = params.filter((p) => p.in === "query" && p.required).map((p) => p.name).sort();
      expect(required, `${route.verb} ${route.template.pattern}`).toEqual(requiredQuery(route).map((f) => f.jsonName).sort());
    }
    expect(spec.paths["/api/user/2fa"].post.parameters.find((p: { name: string }) => p.name === "totp").required).toBe(false);
    for (const [message] of SHARED_BODIES) expect(spec.components.schemas[message.typeName]?.required, message.typeName).toBeUndefined();
  });

  const cases = coreRoutes.flatMap((route) => [
    ...requiredQuery(route).map((missing) => ({ route, missing, where: "query" as const })),
    ...requiredInBody(route).map((missing) => ({ route, missing, where: "body" as const })),
  ]);

  it("covers every annotated input", () => {
    expect(cases.length).toBe(SEED_REQUIRED.flatMap((s) => s.inputs).length);
  });

  it.each(cases.map((c) => [`${c.route.verb} ${c.route.template.pattern} without ${c.missing.jsonName}`, c] as const))("%s: 400 naming it", async (_title, { route, missing, where }) => {
    const query = Object.fromEntries(requiredQuery(route).filter((f) => f !== missing).map((f) => [f.jsonName, valueOf(f)]));
    const body = bodyMessage(route) ? Object.fromEntries(requiredInBody(route).filter((f) => f !== missing).map((f) => [f.jsonName, valueOf(f)])) : undefined;
    const res = await call(route, query, body);
    expect([res.status, res.body?.key], `${where} ${missing.jsonName}: ${res.text}`).toEqual([400, "request.error.missingParameter"]);
    expect(res.body.details, res.text).toEqual({ parameter: missing.jsonName });
    expect(res.body.message, res.text).toMatch(new RegExp(`\\b${missing.jsonName}\\b`));
  });
});
