// JSON Schemas (OpenAPI 3.1) for messages as the gateway renders them.
import { hasOption, ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { null_when_unset } from "@signage/contracts/signage/options/v1/options_pb";
import { enumShortName } from "../transcode/rest-json.js";
import { isRequired } from "@signage/platform";

export type Schema = Record<string, unknown>;

/** A 64-bit integer as the gateway takes it: a JSON number, or its decimal digits (past 2^53 a number loses digits). */
const INT64_OR_DIGITS: Schema = { type: ["integer", "string"], format: "int64", pattern: "^-?[0-9]+$" };

/** Well-known types as their protobuf JSON (rest-json.ts keeps it for them). */
const WKT: Record<string, Schema> = {
  "google.protobuf.Struct": { type: "object", additionalProperties: true },
  // Any JSON value: the empty schema. Fields that take less say so in VALUE_FIELDS.
  "google.protobuf.Value": {},
  "google.protobuf.ListValue": { type: "array", items: {} },
  "google.protobuf.DoubleValue": { type: "number" },
  "google.protobuf.FloatValue": { type: "number" },
  "google.protobuf.Int64Value": INT64_OR_DIGITS,
  "google.protobuf.UInt64Value": { ...INT64_OR_DIGITS, pattern: "^[0-9]+$", minimum: 0 },
  "google.protobuf.Int32Value": { type: "integer", format: "int32" },
  "google.protobuf.UInt32Value": { type: "integer", format: "int32", minimum: 0 },
  "google.protobuf.BoolValue": { type: "boolean" },
  "google.protobuf.StringValue": { type: "string" },
  "google.protobuf.BytesValue": { type: "string", contentEncoding: "base64" },
};

/**
 * `google.protobuf.Value` / `ListValue` fields that take less than any JSON: the type is there
 * only so that JSON null (or []) differs from an absent field, and the field's proto comment (and
 * the service reading it) narrows the rest. Keyed by the field's full name.
 */
const VALUE_FIELDS: Record<string, Schema> = {
  // file.proto FileUpdate: "validFrom and validTo are Values so that JSON null (clears the bound)
  // differs from absent; an integer (Unix ms) sets the bound" (media file-update.ts also takes its digits).
  "signage.media.v1.FileUpdate.valid_from": { ...nullable(INT64_OR_DIGITS), description: "Unix ms; null clears the bound." },
  "signage.media.v1.FileUpdate.valid_to": { ...nullable(INT64_OR_DIGITS), description: "Unix ms; null clears the bound." },
  // "tags is a ListValue so that [] (clears the tags) differs from absent; elements must be tag strings."
  "signage.media.v1.FileUpdate.tags": { type: "array", items: { type: "string" }, description: "Replaces the tags; [] clears them." },
  // customer.proto CustomerFields: "storageSize | long | bytes, null = unlimited": JSON null (back to
  // unlimited) differs from absent; a non-negative integer (core customer-rules.ts: or its digits) is the quota.
  "signage.core.v1.CustomerFields.storage_size": { ...nullable({ ...INT64_OR_DIGITS, pattern: "^[0-9]+$", minimum: 0 }), description: "Bytes; null is unlimited." },
};

/**
 * Enum values no field of that enum may hold. ROLE_PUBLIC is "no token", the min_role of open
 * routes: no user holds it and core refuses it (user-rules.ts, 400 user.error.invalidRole); every
 * Role field in a message is a user's role. (DEVICE_USER stays: users are created with it.)
 */
const HIDDEN_ENUM_VALUES: Record<string, readonly string[]> = {
  "signage.common.v1.Role": ["ROLE_PUBLIC"],
};

function scalarSchema(type: ScalarType): Schema {
  switch (type) {
    case ScalarType.BOOL: return { type: "boolean" };
    case ScalarType.STRING: return { type: "string" };
    case ScalarType.BYTES: return { type: "string", contentEncoding: "base64" };
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT: return { type: "number" };
    case ScalarType.INT64: case ScalarType.SINT64: case ScalarType.SFIXED64:
    case ScalarType.UINT64: case ScalarType.FIXED64: return { type: "integer", format: "int64" };
    default: return { type: "integer", format: "int32" };
  }
}

/** OpenAPI 3.1 (JSON Schema 2020-12) has no `nullable`: null joins the type, or a `$ref` goes in an anyOf. */
export function nullable(schema: Schema): Schema {
  if (typeof schema.type === "string") {
    return { ...schema, type: [schema.type, "null"], ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}) };
  }
  if (Array.isArray(schema.type) && schema.enum === undefined) return { ...schema, type: [...schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

export class SchemaRegistry {
  readonly components: Record<string, Schema> = {};

  ref(desc: DescMessage): Schema {
    if (WKT[desc.typeName]) return WKT[desc.typeName];
    const name = desc.typeName;
    if (!this.components[name]) {
      this.components[name] = {}; // placeholder first: messages may be recursive
      this.components[name] = this.objectSchema(desc);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  objectSchema(desc: DescMessage): Schema {
    const properties: Record<string, Schema> = {};
    for (const field of desc.fields) properties[field.jsonName] = this.fieldSchema(field);
    const required = desc.fields.filter(isRequired).map((f) => f.jsonName);
    return { type: "object", ...(required.length ? { required } : {}), properties };
  }

  single(field: DescField, kind: "scalar" | "enum" | "message"): Schema {
    if (kind === "scalar") return scalarSchema(field.scalar!);
    if (kind === "enum") {
      const hidden = HIDDEN_ENUM_VALUES[field.enum!.typeName] ?? [];
      const values = field.enum!.values.filter((v) => v.number !== 0 && !hidden.includes(v.name));
      return { type: "string", enum: values.map((v) => enumShortName(field.enum!, v.number)) };
    }
    return this.ref(field.message!);
  }

  /** A `(null_when_unset)` field renders null when unset (transcode/response-renderer.ts): typed nullable. */
  fieldSchema(field: DescField): Schema {
    const schema = VALUE_FIELDS[`${field.parent.typeName}.${field.name}`] ?? this.valueSchema(field);
    return hasOption(field, null_when_unset) ? nullable(schema) : schema;
  }

  private valueSchema(field: DescField): Schema {
    switch (field.fieldKind) {
      case "list": return { type: "array", items: this.single(field, field.listKind) };
      case "map": return { type: "object", additionalProperties: this.single(field, field.mapKind) };
      default: return this.single(field, field.fieldKind);
    }
  }
}
