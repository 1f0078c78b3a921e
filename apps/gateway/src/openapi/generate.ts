// OpenAPI 3.1 from the same route table the gateway serves: paths, roles
// (`x-min-role`), parameters (path, query incl. the embedded list parameters),
// bodies and responses as rendered.
import { getOption, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { not_built } from "@signage/contracts/signage/options/v1/options_pb";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import type { RestRoute } from "../routes/route-table.js";
import { SchemaRegistry, type Schema } from "./schemas.js";
import { streamingOpenApi } from "../streaming/openapi.js";
import { PAGE_SELECTION_FIELD } from "../transcode/response-renderer.js";
import { DOCUMENTED_OPERATIONS, type DocumentedOperation } from "../routes/documented-operations.js";
import { routeKey } from "../routes/route-key.js";
import { unbuiltOperationEntry } from "./unbuilt-operations.js";
import { isRequired } from "@signage/platform";
import { DEFAULT_MAX_PAGE_SIZE } from "@signage/query";
import { HEADER_FIELDS } from "../streaming/download-route.js";
import { errorResponse, errorResponses, type BodyKind } from "./error-responses.js";
import { streamingShape } from "../streaming/streamed-body.js";
import { isHttpBodyShaped } from "../transcode/http-body.js";
import { DEFAULT_SECURITY, SECURITY_SCHEMES, SENSITIVE_HEADERS } from "./security.js";
import { httpBodyOpenApi } from "./http-body-media.js";
import { applicableListFields } from "./list-parameters.js";

const EMBEDDED = "signage.common.v1.ListQuery";
const PAGE_INFO = "signage.common.v1.PageInfo";

function queryFields(route: RestRoute, skip: Set<DescField>): DescField[] {
  return route.method.input.fields.flatMap((f) => {
    if (skip.has(f)) return [];
    if (f.fieldKind === "message" && f.message.typeName === EMBEDDED) return applicableListFields(route.method, f.message.fields);
    if (f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message") || f.fieldKind === "map") return [];
    return [f];
  });
}

/** Seed: "`size` (int, default 20 ...)"; libs/query's DEFAULT_PAGE_SIZE (openapi.test.ts keeps them equal). */
export const DOCUMENTED_PAGE_SIZE = 20;

/** "page (0-based, default 0), size (default 20; the endpoint may impose a lower cap)", on every list's paging. */
function pagingBounds(route: RestRoute, field: DescField, schema: Schema): Schema {
  const paged = field.parent.typeName === EMBEDDED || isPageOutput(route);
  if (!paged || field.fieldKind !== "scalar") return schema;
  if (field.name === "page") return { ...schema, minimum: 0, default: 0 };
  // Every list has a cap (libs/query paging: the route's max_page_size, else the default). The server
  // lowers a larger size to it rather than refusing it; `maximum` tells a client no larger page exists.
  if (field.name === "size") {
    const cap = route.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
    return { ...schema, minimum: 1, maximum: cap, default: DOCUMENTED_PAGE_SIZE, description: `At most ${cap} rows per page; a larger size is lowered to it.` };
  }
  return schema;
}

function isPageOutput(route: RestRoute): boolean {
  const page = route.method.output.fields.find((f) => f.name === "page");
  return page?.fieldKind === "message" && page.message.typeName === PAGE_INFO && !route.responseBody;
}

function responseSchema(route: RestRoute, schemas: SchemaRegistry): Schema | undefined {
  const out = route.method.output;
  if (route.responseBody) {
    const field = out.fields.find((f) => f.name === route.responseBody)!;
    return schemas.fieldSchema(field);
  }
  const page = out.fields.find((f) => f.name === "page");
  const content = out.fields.find((f) => f.name === "content");
  if (page?.fieldKind === "message" && page.message.typeName === PAGE_INFO && content) {
    const pageSchema = schemas.objectSchema(page.message);
    const { [PAGE_SELECTION_FIELD]: _internal, ...rendered } = pageSchema.properties as Record<string, Schema>;
    return { ...pageSchema, properties: { content: schemas.fieldSchema(content), ...rendered } };
  }
  if (out.fields.length === 0) return undefined;
  return schemas.ref(out);
}

/**
 * A 64-bit path or query parameter is taken as its decimal digits, so a client may pass it as a
 * string (and must, past 2^53, where a JS number loses digits): typed integer or digit string.
 */
function int64AsText(schema: Schema): Schema {
  if (schema.type === "array" && schema.items) return { ...schema, items: int64AsText(schema.items as Schema) };
  if (schema.type !== "integer" || schema.format !== "int64") return schema;
  return { ...schema, type: ["integer", "string"], pattern: "^-?[0-9]+$" };
}

const ERROR_RESPONSE = errorResponse("Error");

/** The edges served beside the descriptor routes (gateway.ts, oauth-routes.ts, health-routes.ts). */
function edgePaths(): Record<string, Record<string, unknown>> {
  const tokenOk = {
    type: "object",
    required: ["access_token", "token_type", "expires_in"],
    properties: { access_token: { type: "string" }, token_type: { type: "string", enum: ["Bearer"] }, expires_in: { type: "integer" }, refresh_token: { type: "string" } },
  };
  const form = (properties: Record<string, Schema>, required: string[]) => ({ required: true, content: { "application/x-www-form-urlencoded": { schema: { type: "object", required, properties } } } });
  const health = (operationId: string, description: string) => ({
    get: {
      operationId, tags: ["Health"], summary: operationId, description, "x-min-role": "PUBLIC", security: [], parameters: [],
      responses: {
        "200": { description: "UP (or DEGRADED for /readyz)", content: { "application/json": { schema: { type: "object", properties: { status: { type: "string" }, services: { type: "object", additionalProperties: { type: "string" } } } } } } },
      },
    },
  });
  return {
    "/oauth/token": {
      post: {
        operationId: "oauth.token", tags: ["OAuth"], summary: "Token", "x-min-role": "PUBLIC", security: [], parameters: [],
        description: "RFC 6749 token endpoint: grants password, refresh_token, client_credentials (client credentials in HTTP Basic or the form). Answers carry Cache-Control: no-store. Errors carry RFC 6749 `error`/`error_description` beside `message`/`key`. Too many wrong passwords for the username, or TOTP codes for the user, answer 429 `auth.error.tooManyAttempts` (`error` too_many_attempts) with Retry-After until the lock ends; more password checks waiting than core takes answer 503 `auth.error.busy` (`error` temporarily_unavailable) with Retry-After.",
        requestBody: form({ grant_type: { type: "string", enum: ["password", "refresh_token", "client_credentials"] }, username: { type: "string" }, password: { type: "string" }, refresh_token: { type: "string" }, client_id: { type: "string" }, client_secret: { type: "string" }, totp: { type: "string" } }, ["grant_type"]),
        responses: { "200": { description: "Tokens", content: { "application/json": { schema: tokenOk } } }, default: { description: "Error", content: { "application/json": { schema: { allOf: [{ $ref: "#/components/schemas/ErrorBody" }, { type: "object", properties: { error_description: { type: "string" } } }] } } } } },
      },
    },
    "/oauth/revoke": {
      post: {
        operationId: "oauth.revoke", tags: ["OAuth"], summary: "Revoke", "x-min-role": "PUBLIC", security: [], parameters: [],
        description: "RFC 7009: revokes a refresh token; an unknown token is not an error.",
        requestBody: form({ token: { type: "string" } }, ["token"]),
        responses: { "200": { description: "Revoked (or unknown)", content: { "application/json": { schema: { type: "object" } } } }, default: ERROR_RESPONSE },
      },
    },
    "/healthz": health("healthz", "The process is alive."),
    "/readyz": health("readyz", "The gateway takes traffic. `services` holds each upstream's grpc.health.v1 answer; `status` is DEGRADED when one does not answer SERVING (its routes answer 503). It never fails for an upstream: that would take the healthy services' routes out of the load balancer too."),
  };
}

/** How the route's body reaches its service (rpc-routes.ts readBody, or streamed: streaming/upload-route.ts). */
function bodyKind(route: RestRoute): BodyKind | undefined {
  if (streamingShape(route.method) === "upload") return "streamed-upload";
  if (!route.body) return undefined;
  return route.body === "*" && isHttpBodyShaped(route.method.input) ? "buffered-upload" : "json";
}

/** Request fields naming an existing folder or file: the parent to put something in, the file to replace. */
const NAMES_RESOURCE = /^(parent_id|file_id_to_replace)$/;

function operation(route: RestRoute, schemas: SchemaRegistry, documentedSummary: string | undefined): Record<string, unknown> {
  const input = route.method.input;
  const bound = new Set(route.template.variables.map((v) => v.field));
  let requestBody: Record<string, unknown> | undefined;
  if (route.body === "*") {
    input.fields.forEach((f) => bound.add(f));
    requestBody = { required: true, content: { "application/json": { schema: schemas.objectSchema(input) } } };
  } else if (route.body) {
    const field = input.fields.find((f) => f.name === route.body)!;
    bound.add(field);
    requestBody = { required: true, content: { "application/json": { schema: schemas.fieldSchema(field) } } };
  }
  // A download's Range / If-None-Match fields come from the request's headers (streaming/download-route.ts).
  const fromHeaders = route.method.methodKind === "server_streaming" ? input.fields.filter((f) => f.fieldKind === "scalar" && f.name in HEADER_FIELDS) : [];
  fromHeaders.forEach((f) => bound.add(f));
  const parameters = [
    ...route.template.variables.map((v) => ({ name: v.param, in: "path", required: true, schema: int64AsText(schemas.fieldSchema(v.field)) })),
    ...queryFields(route, bound).map((f) => ({ name: f.jsonName, in: "query", required: isRequired(f), schema: int64AsText(pagingBounds(route, f, schemas.fieldSchema(f))) })),
    ...fromHeaders.map((f) => ({ name: HEADER_FIELDS[f.name], in: "header", required: false, schema: { type: "string" } })),
  ];
  const role = Role[route.minRole] ?? "UNSPECIFIED";
  const response = responseSchema(route, schemas);
  const errors = errorResponses({
    minRole: route.minRole,
    customerSelector: route.customerSelector,
    hasPathId: route.template.variables.length > 0,
    takesInput: parameters.length > 0 || requestBody !== undefined,
    body: bodyKind(route),
    namesResource: input.fields.some((f) => NAMES_RESOURCE.test(f.name)),
    servesRanges: streamingShape(route.method) === "download" && input.fields.some((f) => f.name === "range" && f.fieldKind === "scalar"),
    rpc: `${route.service.typeName}/${route.method.name}`,
  });
  // Declared in the contract but answering 501 until built: no success response to rely on.
  const notBuilt = getOption(route.method, not_built);
  const success = notBuilt
    ? { "501": { ...ERROR_RESPONSE, description: `Not implemented yet: ${notBuilt}` } }
    : response
      ? { "200": { description: "OK", content: { "application/json": { schema: response } } } }
      : { "204": { description: "No content" } };
  return {
    operationId: `${route.service.name}.${route.method.name}`,
    tags: [route.service.name],
    // The documents' own name for the operation ("List files (Page of File)"); the RPC's for paths they do not show.
    summary: documentedSummary ?? route.method.name,
    description: [notBuilt ? `Not built yet (${notBuilt}): answers 501.` : "", `Minimum role: ${role}.`, route.customerSelector ? "Accepts the optional `customerId` selector." : "", route.sensitive ? "Sensitive: send `x-totp` when 2FA is on." : ""].filter(Boolean).join(" "),
    ...(notBuilt ? { "x-not-implemented": true } : {}),
    "x-min-role": role,
    "x-rpc": `${route.service.typeName}/${route.method.name}`,
    ...(route.minRole === Role.PUBLIC ? { security: [] } : {}),
    parameters: route.sensitive ? [...parameters, ...SENSITIVE_HEADERS] : parameters,
    ...(requestBody ? { requestBody } : {}),
    responses: {
      ...success,
      ...errors,
      default: ERROR_RESPONSE,
    },
    ...httpBodyOpenApi(route, errors, ERROR_RESPONSE),
    ...streamingOpenApi(route, errors, ERROR_RESPONSE),
  };
}

/** `documented`: the routes inventory, for the summaries of the operations it names. */
export function generateOpenApi(
  routes: RestRoute[],
  info: { title?: string; version?: string } = {},
  unbuilt: readonly DocumentedOperation[] = [],
  documented: readonly DocumentedOperation[] = DOCUMENTED_OPERATIONS,
): Record<string, unknown> {
  const schemas = new SchemaRegistry();
  const summaries = new Map(documented.map((op) => [routeKey(op.method, op.path), op.summary]));
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    const path = route.template.pattern.replace(/\{([a-zA-Z0-9_]+)(?:=[^}]*)?\}/g, (_m, name: string) => `{${route.template.variables.find((v) => v.field.name === name)?.param ?? name}}`);
    const op = operation(route, schemas, summaries.get(routeKey(route.verb, route.template.pattern)));
    // An RPC with additional_bindings has one operation per binding: operationIds must stay unique (OpenAPI 3.1, 4.8.10).
    const base = op.operationId as string;
    let id = base;
    for (let n = 2; operationIds.has(id); n++) id = `${base}_${n}`;
    operationIds.add(id);
    (paths[path] ??= {})[route.verb.toLowerCase()] = { ...op, operationId: id };
  }
  // Paths differing only in parameter names are one path to OpenAPI (3.1, 4.8.8): the first spelling wins.
  const shapeOf = (path: string) => path.replace(/\{[^}]+\}/g, "{}");
  const byShape = new Map(Object.keys(paths).map((path) => [shapeOf(path), path]));
  for (const op of unbuilt) {
    const path = byShape.get(shapeOf(op.path)) ?? op.path;
    byShape.set(shapeOf(path), path);
    const entry = unbuiltOperationEntry(op, path, ERROR_RESPONSE);
    const verb = op.method.toLowerCase();
    if ((paths[path] ??= {})[verb] === undefined && !operationIds.has(entry.operationId as string)) {
      operationIds.add(entry.operationId as string);
      paths[path][verb] = entry;
    }
  }
  Object.assign(paths, edgePaths());
  return {
    openapi: "3.1.0",
    info: { title: info.title ?? "Signage platform API", version: info.version ?? "2" },
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: {
        ...schemas.components,
        ErrorBody: {
          type: "object",
          // Every error has all five (error-body.ts): generated clients must not make them optional.
          required: ["status", "error", "message", "key", "details"],
          properties: { status: { type: "integer" }, error: { type: "string" }, message: { type: "string" }, key: { type: "string" }, details: { type: "object", additionalProperties: true } },
        },
      },
    },
    security: DEFAULT_SECURITY,
  };
}
