import type { ResolvedScalarField } from "../registry/resource.js";

/**
 * Turns what PostgreSQL returned into the API value: 64-bit integers and ms timestamps (int8
 * arrives as text) become numbers when they fit exactly, otherwise stay strings.
 */
export function decodeValue(field: ResolvedScalarField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case "timestamp":
      return toNumber(value);
    case "number":
      return field.sqlType === "integer" ? value : toNumber(value);
    case "id":
      return field.sqlType === "bigint" ? toNumber(value) : value;
    default:
      return value;
  }
}

function toNumber(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const number = Number(value);
  if (/^-?\d+$/.test(value)) return Number.isSafeInteger(number) ? number : value;
  return Number.isFinite(number) ? number : value;
}
