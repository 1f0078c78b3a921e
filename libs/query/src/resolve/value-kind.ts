import type { FilterOperator } from "../filter/ast.js";
import type { IdSqlType, NumberSqlType } from "../registry/field-spec.js";
import { idSqlType, numberSqlType, type ResolvedScalarField } from "../registry/resource.js";

/** What a comparison compares, which decides operators, value parsing and SQL. */
export type ValueKind =
  | { readonly kind: "text"; readonly label: string }
  | { readonly kind: "number"; readonly sqlType: NumberSqlType }
  | { readonly kind: "boolean" }
  | { readonly kind: "timestamp"; readonly storage: "timestamptz" | "epochMs" }
  | { readonly kind: "enum"; readonly values: readonly string[] }
  | { readonly kind: "id"; readonly sqlType: IdSqlType }
  | { readonly kind: "array"; readonly element: IdSqlType; readonly label: string }
  | { readonly kind: "json" };

export function valueKindOf(field: ResolvedScalarField, jsonPath: readonly string[]): ValueKind {
  switch (field.type) {
    case "string":
      return { kind: "text", label: "string" };
    case "number":
      return { kind: "number", sqlType: numberSqlType(field) };
    case "boolean":
      return { kind: "boolean" };
    case "timestamp":
      return { kind: "timestamp", storage: field.storage ?? "timestamptz" };
    case "enum":
      return { kind: "enum", values: field.values };
    case "id":
      return { kind: "id", sqlType: idSqlType(field) };
    case "stringArray":
      return { kind: "array", element: "text", label: "string array" };
    case "folderPath":
      return { kind: "array", element: idSqlType(field), label: "folder path" };
    case "json":
      return jsonPath.length > 0 ? { kind: "text", label: "JSON text" } : { kind: "json" };
  }
}

const OPERATORS_BY_KIND: Record<ValueKind["kind"], readonly FilterOperator[]> = {
  text: [":", "=", "≠", "∉", "^", "∈"],
  number: [":", "=", "≠", ">", "≥", "<", "≤", "∈"],
  timestamp: [":", "=", "≠", ">", "≥", "<", "≤", "∈"],
  boolean: [":", "=", "≠", "∈"],
  enum: [":", "=", "≠", "∈"],
  id: [":", "=", "≠", "∈"],
  array: [":", "=", "≠", "∉", "∈"],
  json: [],
};

/** Numeric ids (customers, ...) order as numbers: ">, ≥, <, ≤ numeric or date comparison" applies to them. */
const NUMERIC_ID_OPERATORS: readonly FilterOperator[] = OPERATORS_BY_KIND.number;

export function operatorsFor(kind: ValueKind): readonly FilterOperator[] {
  if (kind.kind === "id" && kind.sqlType === "bigint") return NUMERIC_ID_OPERATORS;
  return OPERATORS_BY_KIND[kind.kind];
}

export function describeKind(kind: ValueKind): string {
  switch (kind.kind) {
    case "text":
    case "array":
      return kind.label;
    case "number":
      return kind.sqlType === "integer" || kind.sqlType === "bigint" ? "integer" : "number";
    case "timestamp":
      return "timestamp (Unix ms)";
    default:
      return kind.kind;
  }
}
