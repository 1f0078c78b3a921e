// OpenAPI 3.1 from the same route table the gateway serves: paths, roles
// (`x-min-role`), parameters (path, query incl. the embedded list parameters),
// bodies and responses as rendered.
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import type { RestRoute } from "../routes/route-table.js";
import { SchemaRegistry, type Schema } from "./schemas.js";
import { streamingOpenApi } from "../streaming/openapi.js";
import { PAGE_SELECTION_FIELD } from "../transcode/response-renderer.js";

const EMBEDDED = "signage.common.v1.ListQuery";
const PAGE_INFO = "signage.common.v1.PageInfo";

function queryFields(desc: DescMessage, skip: Set<DescField>): DescField[] {
  return desc.fields.flatMap((f) => {
    if (skip.has(f)) return [];
    if (f.fieldKind === "message" && f.message.typeName === EMBEDDED) return f.message.fields;
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
  // A larger size is lowered to the cap, not refused: a description, not a `maximum`.
  if (field.name === "size") return { ...schema, minimum: 1, default: DOCUMENTED_PAGE_SIZE, ...(route.maxPageSize ? { description: `At most ${route.maxPageSize} rows per page; a larger size is lowered to it.` } : {}) };
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

function operation(route: RestRoute, schemas: SchemaRegistry): Record<string, unknown> {
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
  const parameters = [
    ...route.template.variables.map((v) => ({ name: v.param, in: "path", required: true, schema: schemas.fieldSchema(v.field) })),
    ...queryFields(input, bound).map((f) => ({ name: f.jsonName, in: "query", required: false, schema: pagingBounds(route, f, schemas.fieldSchema(f)) })),
  ];
  const role = Role[route.minRole] ?? "UNSPECIFIED";
  const response = responseSchema(route, schemas);
  return {
    operationId: `${route.service.name}.${route.method.name}`,
    tags: [route.service.name],
    summary: route.method.name,
    description: [`Minimum role: ${role}.`, route.customerSelector ? "Accepts the optional `customerId` selector." : "", route.sensitive ? "Sensitive: send `x-totp` when 2FA is on." : ""].filter(Boolean).join(" "),
    "x-min-role": role,
    "x-rpc": `${route.service.typeName}/${route.method.name}`,
    ...(route.minRole === Role.PUBLIC ? { security: [] } : {}),
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses: {
      ...(response ? { "200": { description: "OK", content: { "application/json": { schema: response } } } } : { "204": { description: "No content" } }),
      default: { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } } },
    },
    ...streamingOpenApi(route),
  };
}

export function generateOpenApi(routes: RestRoute[], info: { title?: string; version?: string } = {}): Record<string, unknown> {
  const schemas = new SchemaRegistry();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.template.pattern.replace(/\{([a-zA-Z0-9_]+)\}/g, (_m, name: string) => `{${route.template.variables.find((v) => v.field.name === name)?.param ?? name}}`);
    (paths[path] ??= {})[route.verb.toLowerCase()] = operation(route, schemas);
  }
  return {
    openapi: "3.1.0",
    info: { title: info.title ?? "Signage platform API", version: info.version ?? "2" },
    paths,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: {
        ...schemas.components,
        ErrorBody: {
          type: "object",
          properties: { status: { type: "integer" }, error: { type: "string" }, message: { type: "string" }, key: { type: "string" }, details: { type: "object" } },
        },
      },
    },
    security: [{ bearer: [] }],
  };
}
