// List rows come out of libs/query keyed by the published JSON field names;
// this turns them into protobuf messages of the same shape (int64 as bigint,
// enums by name, nested relations recursively). One converter for every list.
import { create, fromJson, ScalarType, type DescField, type DescMessage, type JsonValue, type MessageShape } from "@bufbuild/protobuf";

const INT64 = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);

function enumNumber(field: DescField, value: unknown): number | undefined {
  if (typeof value === "number") return value;
  const desc = field.enum!;
  const prefix = desc.name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase() + "_";
  return desc.values.find((v) => v.name === value || v.name === prefix + String(value))?.number;
}

function scalar(field: DescField, value: unknown): unknown {
  const type = field.scalar!;
  if (INT64.has(type)) return typeof value === "bigint" ? value : value instanceof Date ? BigInt(value.getTime()) : BigInt(Math.trunc(Number(value)));
  if (type === ScalarType.STRING) return Array.isArray(value) ? `/${value.join("/")}/` : String(value);
  if (type === ScalarType.BOOL) return Boolean(value);
  if (value instanceof Date) return value.getTime();
  return value;
}

function single(field: DescField, kind: "scalar" | "enum" | "message", value: unknown): unknown {
  if (kind === "scalar") return scalar(field, value);
  if (kind === "enum") return enumNumber(field, value);
  const desc = field.message!;
  if (desc.typeName === "google.protobuf.Struct") return value;
  if (desc.typeName.startsWith("google.protobuf.")) return fromJson(desc, value as JsonValue);
  return rowToMessageInit(desc, value as Record<string, unknown>);
}

function rowToMessageInit(desc: DescMessage, row: Record<string, unknown>): Record<string, unknown> {
  const init: Record<string, unknown> = {};
  for (const field of desc.fields) {
    const value = row[field.jsonName] ?? row[field.localName];
    if (value === undefined || value === null) continue;
    if (field.fieldKind === "list") init[field.localName] = (value as unknown[]).map((v) => single(field, field.listKind, v));
    else if (field.fieldKind === "map") {
      init[field.localName] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, single(field, field.mapKind, v)]));
    }
    else init[field.localName] = single(field, field.fieldKind, value);
  }
  return init;
}

/**
 * A message from a JSON-named row. Absent and null values stay unset, so a
 * `select` projection renders only what was selected. A string field fed an
 * array (a folder path of ancestor ids) renders as `/a/b/c/`.
 */
export function rowToMessage<Desc extends DescMessage>(desc: Desc, row: Record<string, unknown>): MessageShape<Desc> {
  return create(desc, rowToMessageInit(desc, row) as never);
}
