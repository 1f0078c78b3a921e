// JSON as the documents show it, which differs from canonical protobuf JSON:
// int64 renders as a JSON number, enums by their short name ("ADMIN", not
// "ROLE_ADMIN"), unset optional fields are left out while present defaults
// (false, 0) still render. Works on protobuf-es v2 plain message objects.
import { fromJson, toJson, ScalarType, type DescEnum, type DescField, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import { enumValuePrefix } from "@signage/platform";
import { RestInputError } from "./rest-input-error.js";

type Plain = Record<string, unknown>;

const isWellKnown = (desc: DescMessage) => desc.typeName.startsWith("google.protobuf.");

export function enumShortName(desc: DescEnum, value: number): string | number {
  const v = desc.value[value];
  if (!v) return value;
  return v.name.slice(enumValuePrefix(desc).length);
}

function scalarToRest(type: ScalarType, value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (type === ScalarType.BYTES && value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  return value;
}

function messageValueToRest(desc: DescMessage, value: unknown): unknown {
  if (isWellKnown(desc)) {
    // Struct fields arrive unboxed as plain JSON objects; other WKTs keep their canonical JSON.
    const isBoxed = typeof value === "object" && value !== null && "$typeName" in value;
    return isBoxed ? toJson(desc, value as never) : value;
  }
  return messageToRest(desc, value as Plain);
}

function singleToRest(field: DescField, kind: "scalar" | "enum" | "message", value: unknown): unknown {
  if (kind === "scalar") return scalarToRest(field.scalar!, value);
  if (kind === "enum") return enumShortName(field.enum!, value as number);
  return messageValueToRest(field.message!, value);
}

export function fieldToRest(field: DescField, value: unknown): unknown {
  switch (field.fieldKind) {
    case "scalar":
    case "enum":
    case "message":
      return singleToRest(field, field.fieldKind, value);
    case "list":
      return (value as unknown[]).map((v) => singleToRest(field, field.listKind, v));
    case "map": {
      const out: Plain = {};
      for (const [k, v] of Object.entries(value as Plain)) out[k] = singleToRest(field, field.mapKind, v);
      return out;
    }
  }
}

function readField(field: DescField, msg: Plain): unknown {
  if (field.oneof) {
    const slot = msg[field.oneof.localName] as { case?: string; value?: unknown } | undefined;
    return slot?.case === field.localName ? slot.value : undefined;
  }
  return msg[field.localName];
}

// Output rendering runs for every field of every row of every page: the
// per-field decisions are made once per message type.
interface RestFieldPlan {
  field: DescField;
  jsonName: string;
  localName: string;
  /** Scalars that render as they are (no int64, no bytes): copied without a call. */
  plain: boolean;
}

const restPlans = new WeakMap<DescMessage, RestFieldPlan[]>();

function restPlanOf(desc: DescMessage): RestFieldPlan[] {
  let plan = restPlans.get(desc);
  if (!plan) {
    plan = desc.fields.map((field) => ({
      field,
      jsonName: field.jsonName,
      localName: field.localName,
      plain: !field.oneof && field.fieldKind === "scalar" && !INT64_KINDS.has(field.scalar) && field.scalar !== ScalarType.BYTES,
    }));
    restPlans.set(desc, plan);
  }
  return plan;
}

export function messageToRest(desc: DescMessage, msg: Plain): Plain {
  const out: Plain = {};
  for (const p of restPlanOf(desc)) {
    if (p.plain) {
      const value = msg[p.localName];
      if (value !== undefined) out[p.jsonName] = value;
      continue;
    }
    const value = readField(p.field, msg);
    if (value !== undefined) out[p.jsonName] = fieldToRest(p.field, value);
  }
  return out;
}

// ---- input ----

const INT32_KINDS = new Set([ScalarType.INT32, ScalarType.SINT32, ScalarType.SFIXED32]);
const UINT32_KINDS = new Set([ScalarType.UINT32, ScalarType.FIXED32]);
const INT64_KINDS = new Set([ScalarType.INT64, ScalarType.SINT64, ScalarType.SFIXED64, ScalarType.UINT64, ScalarType.FIXED64]);
const UINT64_KINDS = new Set([ScalarType.UINT64, ScalarType.FIXED64]);
const INT64_RANGE = [-(2n ** 63n), 2n ** 63n - 1n] as const;
const UINT64_RANGE = [0n, 2n ** 64n - 1n] as const;

function describe(value: unknown): string {
  return typeof value === "string" ? `'${value}'` : JSON.stringify(value);
}

/** A scalar from JSON; `fromText` also accepts the string forms a query parameter carries. */
export function scalarFromRest(type: ScalarType, raw: unknown, where: string, fromText = false): unknown {
  if (INT32_KINDS.has(type) || UINT32_KINDS.has(type) || INT64_KINDS.has(type)) {
    const text = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : undefined;
    if (text === undefined || !/^-?\d+$/.test(text)) throw new RestInputError(where, `must be an integer, got ${describe(raw)}`);
    if (INT64_KINDS.has(type)) {
      // A JSON number past 2^53 has already lost digits in JSON.parse: the value sent is not the one meant.
      if (typeof raw === "number" && !Number.isSafeInteger(raw)) throw new RestInputError(where, `is too large for a JSON number (digits are lost); send it as a string, got ${text}`);
      const value = BigInt(text);
      const [min, max] = UINT64_KINDS.has(type) ? UINT64_RANGE : INT64_RANGE;
      if (value < min || value > max) throw new RestInputError(where, `is out of range, got ${text}`);
      return value;
    }
    const n = Number(text);
    const [min, max] = UINT32_KINDS.has(type) ? [0, 4294967295] : [-2147483648, 2147483647];
    if (n < min || n > max) throw new RestInputError(where, `is out of range, got ${text}`);
    return n;
  }
  switch (type) {
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT: {
      const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
      if (!Number.isFinite(n)) throw new RestInputError(where, `must be a number, got ${describe(raw)}`);
      return n;
    }
    case ScalarType.BOOL:
      if (typeof raw === "boolean") return raw;
      if (fromText && (raw === "true" || raw === "false")) return raw === "true";
      throw new RestInputError(where, `must be true or false, got ${describe(raw)}`);
    case ScalarType.STRING:
      if (typeof raw === "string") return raw;
      if (fromText) return String(raw);
      throw new RestInputError(where, `must be a string, got ${describe(raw)}`);
    case ScalarType.BYTES:
      if (typeof raw === "string") return new Uint8Array(Buffer.from(raw, "base64"));
      throw new RestInputError(where, `must be base64 text, got ${describe(raw)}`);
    default:
      throw new RestInputError(where, `has an unsupported type`);
  }
}

export function enumFromRest(desc: DescEnum, raw: unknown, where: string): number {
  if (typeof raw === "number" && desc.value[raw]) return raw;
  if (typeof raw === "string") {
    const prefix = enumValuePrefix(desc);
    const match = desc.values.find((v) => v.name === raw || v.name === prefix + raw);
    if (match && match.number !== 0) return match.number;
  }
  const allowed = desc.values.filter((v) => v.number !== 0).map((v) => enumShortName(desc, v.number));
  throw new RestInputError(where, `must be one of ${allowed.join(", ")}, got ${describe(raw)}`);
}

function singleFromRest(field: DescField, kind: "scalar" | "enum" | "message", raw: unknown, where: string): unknown {
  if (kind === "scalar") return scalarFromRest(field.scalar!, raw, where);
  if (kind === "enum") return enumFromRest(field.enum!, raw, where);
  return messageFromRest(field.message!, raw, where);
}

export function fieldFromRest(field: DescField, raw: unknown, where: string): unknown {
  switch (field.fieldKind) {
    case "scalar":
    case "enum":
    case "message":
      return singleFromRest(field, field.fieldKind, raw, where);
    case "list":
      if (!Array.isArray(raw)) throw new RestInputError(where, `must be an array`);
      return raw.map((v, i) => singleFromRest(field, field.listKind, v, `${where}[${i}]`));
    case "map": {
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new RestInputError(where, `must be an object`);
      const out: Plain = {};
      for (const [k, v] of Object.entries(raw)) {
        if (field.mapKey !== ScalarType.STRING) scalarFromRest(field.mapKey, k, `${where}.${k}`, true);
        out[k] = singleFromRest(field, field.mapKind, v, `${where}.${k}`);
      }
      return out;
    }
  }
}

/** A `google.protobuf.Value` field takes JSON null as a value (NullValue), as protobuf JSON does: "clear this". */
const takesNull = (field: DescField) => field.fieldKind === "message" && field.message.typeName === "google.protobuf.Value";

/** A message init object from REST JSON. Unknown properties are ignored; `null` means absent, except for Value fields. */
export function messageFromRest(desc: DescMessage, raw: unknown, where: string): Plain {
  if (isWellKnown(desc)) {
    if (desc.typeName === "google.protobuf.Struct") {
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new RestInputError(where, `must be a JSON object`);
      return raw as Plain;
    }
    try {
      return fromJson(desc, raw as JsonValue) as unknown as Plain;
    } catch (e) {
      throw new RestInputError(where, `is not valid: ${(e as Error).message}`);
    }
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new RestInputError(where || "Request body", `must be a JSON object`);
  const init: Plain = {};
  for (const [key, value] of Object.entries(raw as Plain)) {
    const field = desc.fields.find((f) => f.jsonName === key) ?? desc.fields.find((f) => f.name === key);
    if (!field || value === undefined || (value === null && !takesNull(field))) continue;
    const converted = fieldFromRest(field, value, where ? `${where}.${key}` : key);
    if (field.oneof) init[field.oneof.localName] = { case: field.localName, value: converted };
    else init[field.localName] = converted;
  }
  return init;
}
