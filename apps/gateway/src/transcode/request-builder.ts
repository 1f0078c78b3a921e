// Builds the RPC request from an HTTP request as google.api.http says:
// path variables, then the body (`*` or one top-level field), then every
// remaining top-level field from the query string by its JSON name. A field of
// type signage.common.v1.ListQuery is embedded: its fields are read from the
// top-level query parameters (`page`, `size`, `sort`, `search`, ...).
import { create, ScalarType, type DescField, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import type { RestRoute } from "../routes/route-table.js";
import { enumFromRest, fieldFromRest, messageFromRest, scalarFromRest } from "./rest-json.js";
import { RestInputError, UnknownParameterError } from "./rest-input-error.js";
import { refuseNonUtf8Query } from "../http/query-encoding.js";

const EMBEDDED_QUERY_TYPES = new Set(["signage.common.v1.ListQuery"]);

export type QueryValues = Record<string, string | string[] | undefined>;

export interface HttpInput {
  params: Record<string, string>;
  query: QueryValues;
  body: unknown;
  /** The query string as sent (percent-encoded): its escapes must be UTF-8 where the operation reads them. */
  rawQuery?: string;
}

function queryParam(query: QueryValues, field: DescField): string[] | undefined {
  const raw = query[field.jsonName] ?? query[field.name];
  if (raw === undefined) return undefined;
  return Array.isArray(raw) ? raw : [raw];
}

function scalarFromText(field: DescField, text: string, where: string): unknown {
  const isEnum = field.fieldKind === "enum" || (field.fieldKind === "list" && field.listKind === "enum");
  if (isEnum) return enumFromRest(field.enum!, text, where);
  return scalarFromRest(field.scalar!, text, where, true);
}

/** `?page=` (an empty number, flag or enum) means the parameter was left out, as forms send it. */
function isBlankNonText(field: DescField, text: string): boolean {
  const scalar = field.fieldKind === "scalar" || (field.fieldKind === "list" && field.listKind === "scalar") ? field.scalar : undefined;
  return text.trim() === "" && scalar !== ScalarType.STRING && scalar !== ScalarType.BYTES;
}

function queryFieldValue(field: DescField, given: string[]): unknown {
  const where = `Query parameter '${field.jsonName}'`;
  const values = given.filter((v) => !isBlankNonText(field, v));
  if (values.length === 0) return undefined;
  if (field.fieldKind === "list") {
    if (field.listKind === "message") return undefined;
    return values.map((v) => scalarFromText(field, v, where));
  }
  if (field.fieldKind === "scalar" || field.fieldKind === "enum") {
    // A single-valued field given twice (`?customerId=1&customerId=2`): which one is meant is
    // ambiguous (and a proxy may have checked the other one), so it is refused, not guessed.
    if (values.length > 1) throw new RestInputError(where, `takes one value, got ${values.length}`);
    return scalarFromText(field, values[0], where);
  }
  return undefined;
}

/** Fills `target` from the query; `taken` collects the query fields the operation takes. */
function fillFromQuery(desc: DescMessage, query: QueryValues, skip: Set<DescField>, target: Record<string, unknown>, taken: DescField[]): void {
  for (const field of desc.fields) {
    if (skip.has(field)) continue;
    if (field.fieldKind === "message" && EMBEDDED_QUERY_TYPES.has(field.message.typeName)) {
      const embedded: Record<string, unknown> = {};
      fillFromQuery(field.message, query, new Set(), embedded, taken);
      target[field.localName] = embedded;
      continue;
    }
    if (field.fieldKind === "message" || (field.fieldKind === "list" && field.listKind === "message") || field.fieldKind === "map") continue;
    taken.push(field);
    const values = queryParam(query, field);
    if (!values) continue;
    const value = queryFieldValue(field, values);
    if (value !== undefined) target[field.localName] = value;
  }
}

export function buildRequest(route: RestRoute, http: HttpInput): MessageShape<DescMessage> {
  const input = route.method.input;
  const init: Record<string, unknown> = {};
  const bound = new Set<DescField>();

  for (const variable of route.template.variables) {
    // Already percent-decoded once by the router: decoding again would turn `%2525` into `%`, and `%25` into a URIError.
    const text = http.params[variable.param];
    bound.add(variable.field);
    if (text === undefined) continue;
    init[variable.field.localName] = scalarFromText(variable.field, text, `Path parameter '${variable.param}'`);
  }

  if (route.body === "*") {
    // google.api.http: `*` maps "every field not bound by the path template" to the body. The path names
    // the resource: a body `id` must not redirect the call to another one (it is ignored, as unknown properties are).
    const fromBody = messageFromRest(input, http.body ?? {}, "");
    for (const variable of route.template.variables) delete fromBody[variable.field.localName];
    Object.assign(init, fromBody);
    for (const f of input.fields) if (!bound.has(f)) bound.add(f);
  } else if (route.body) {
    const field = input.fields.find((f) => f.name === route.body);
    if (!field) throw new Error(`${input.typeName} has no body field '${route.body}'`);
    bound.add(field);
    if (field.fieldKind === "list") {
      init[field.localName] = fieldFromRest(field, http.body ?? [], "Request body");
    } else if (field.fieldKind === "message") {
      init[field.localName] = messageFromRest(field.message, http.body ?? {}, "");
    } else if (http.body !== undefined) {
      init[field.localName] = fieldFromRest(field, http.body, "Request body");
    }
  }

  const taken: DescField[] = [];
  fillFromQuery(input, http.query, bound, init, taken);
  if (route.verb !== "GET") refuseUnknownParameters(http.query, taken);
  if (http.rawQuery) {
    const names = new Set([...ALWAYS_ACCEPTED, ...taken.flatMap((f) => [f.jsonName, f.name])]);
    refuseNonUtf8Query(http.rawQuery, (name) => names.has(name));
  }
  try {
    return create(input, init as never);
  } catch (e) {
    throw new RestInputError("Request", `is not valid: ${(e as Error).message}`);
  }
}

/**
 * Document 2's customer scoping table names `customerId` for every caller and operation: clients
 * may send it on every call. Where the operation is no (C) selector it stays ignored, as before.
 */
const ALWAYS_ACCEPTED = ["customerId"];

/**
 * On a write, a query parameter the operation does not take is refused rather than dropped: a
 * misspelt flag (`removeOldFile`) or selector (`search`) would otherwise let the write go ahead
 * as if it had not been sent. Names count in their JSON and proto spellings (as queryParam reads
 * them). Reads stay lenient (cache-busting parameters, links shared between lists).
 */
function refuseUnknownParameters(query: QueryValues, taken: readonly DescField[]): void {
  const known = new Set([...ALWAYS_ACCEPTED, ...taken.flatMap((f) => [f.jsonName, f.name])]);
  for (const name of Object.keys(query)) {
    if (!known.has(name)) throw new UnknownParameterError(name, taken.map((f) => f.jsonName).sort());
  }
}
