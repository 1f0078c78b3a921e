// List rows come out of libs/query keyed by the published JSON field names;
// this turns them into protobuf messages of the same shape (int64 as bigint,
// enums by name, nested relations recursively). One converter for every list.
//
// It runs once per row of every page, so the per-field decisions (which key,
// which conversion, the enum name table) are made once per message type and
// cached; a row then costs one pass over its fields and no second walk
// through `create(desc, init)`.
import { create, fromJson, ScalarType, type DescField, type DescMessage, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { enumValuePrefix, installBufferTextEncoding } from "@signage/platform";

// Every list response is serialized right after this conversion.
installBufferTextEncoding();

const INT64 = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);

type Convert = (value: unknown) => unknown;

interface FieldPlan {
  jsonName: string;
  localName: string;
  /** Set for a field of a oneof group: the message holds `{case, value}` under the group's name. */
  oneof?: string;
  convert: Convert;
}

const plans = new WeakMap<DescMessage, FieldPlan[]>();

function planOf(desc: DescMessage): FieldPlan[] {
  let plan = plans.get(desc);
  if (!plan) {
    plan = desc.fields.map((field) => ({ jsonName: field.jsonName, localName: field.localName, oneof: field.oneof?.localName, convert: fieldConverter(field) }));
    plans.set(desc, plan);
  }
  return plan;
}

/** Enum values by full name, short name (without the `TYPE_NAME_` prefix) and number. */
function enumConverter(field: DescField): Convert {
  const desc = field.enum!;
  const prefix = enumValuePrefix(desc);
  const byName = new Map<string, number>();
  // Full names first so they win over a short name that happens to equal another value's full name.
  if (prefix) for (const v of desc.values) byName.set(v.name.slice(prefix.length), v.number);
  for (const v of desc.values) byName.set(v.name, v.number);
  return (value) => (typeof value === "number" ? value : byName.get(String(value)));
}

function scalarConverter(type: ScalarType): Convert {
  if (INT64.has(type)) return (value) => (typeof value === "bigint" ? value : value instanceof Date ? BigInt(value.getTime()) : BigInt(Math.trunc(Number(value))));
  // A folder path (array of ancestor ids) renders as `/a/b/c/`.
  if (type === ScalarType.STRING) return (value) => (typeof value === "string" ? value : Array.isArray(value) ? `/${value.join("/")}/` : String(value));
  if (type === ScalarType.BOOL) return Boolean;
  if (type === ScalarType.BYTES) return (value) => (Array.isArray(value) ? new Uint8Array(value) : value);
  return (value) => (value instanceof Date ? value.getTime() : value);
}

function messageConverter(field: DescField, desc: DescMessage): Convert {
  // google.protobuf.Struct fields hold plain JSON objects in protobuf-es v2.
  if (desc.typeName === "google.protobuf.Struct") return (value) => value;
  // Wrapper types are unboxed in a singular field outside a oneof: the value is the scalar itself.
  if (isWrapperDesc(desc) && field.fieldKind === "message" && !field.oneof) return scalarConverter(desc.fields[0].scalar!);
  if (desc.typeName.startsWith("google.protobuf.")) return (value) => fromJson(desc, value as JsonValue);
  return (value) => rowToMessage(desc, value as Record<string, unknown>);
}

function singleConverter(field: DescField, kind: "scalar" | "enum" | "message"): Convert {
  if (kind === "scalar") return scalarConverter(field.scalar!);
  if (kind === "enum") return enumConverter(field);
  return messageConverter(field, field.message!);
}

function fieldConverter(field: DescField): Convert {
  switch (field.fieldKind) {
    case "list": {
      const one = singleConverter(field, field.listKind);
      return (value) => (value as unknown[]).map(one);
    }
    case "map": {
      const one = singleConverter(field, field.mapKind);
      return (value) => {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = one(v);
        return out;
      };
    }
    default:
      return singleConverter(field, field.fieldKind);
  }
}

/**
 * A message from a JSON-named row. Absent and null values stay unset, so a
 * `select` projection renders only what was selected. A string field fed an
 * array (a folder path of ancestor ids) renders as `/a/b/c/`.
 */
export function rowToMessage<Desc extends DescMessage>(desc: Desc, row: Record<string, unknown>): MessageShape<Desc> {
  const message = create(desc) as Record<string, unknown>;
  for (const field of planOf(desc)) {
    const raw = row[field.jsonName] ?? row[field.localName];
    if (raw === undefined || raw === null) continue;
    const value = field.convert(raw);
    // An enum name the contract does not know stays unset, as before.
    if (value === undefined) continue;
    if (field.oneof) message[field.oneof] = { case: field.localName, value };
    else message[field.localName] = value;
  }
  return message as MessageShape<Desc>;
}
