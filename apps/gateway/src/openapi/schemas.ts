// JSON Schemas (OpenAPI 3.1) for messages as the gateway renders them.
import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { enumShortName } from "../transcode/rest-json.js";
import { isRequired } from "@signage/platform";

export type Schema = Record<string, unknown>;

const WKT: Record<string, Schema> = {
  "google.protobuf.Struct": { type: "object", additionalProperties: true },
  "google.protobuf.Value": {},
  "google.protobuf.ListValue": { type: "array", items: {} },
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
    if (kind === "enum") return { type: "string", enum: field.enum!.values.filter((v) => v.number !== 0).map((v) => enumShortName(field.enum!, v.number)) };
    return this.ref(field.message!);
  }

  fieldSchema(field: DescField): Schema {
    switch (field.fieldKind) {
      case "list": return { type: "array", items: this.single(field, field.listKind) };
      case "map": return { type: "object", additionalProperties: this.single(field, field.mapKind) };
      default: return this.single(field, field.fieldKind);
    }
  }
}
