import type { IdSqlType } from "../registry/field-spec.js";
import type { ValueKind } from "./value-kind.js";

/** Unix ms range accepted in filters: years 0001..9999, so ms + 1 stays representable. */
export const TIMESTAMP_MIN_MS = -62_135_596_800_000;
export const TIMESTAMP_MAX_MS = 253_402_300_799_998;

/** A filter value ready for binding, or a value no row can hold (e.g. "abc" for a uuid id). */
export type TypedValue = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

const INTEGER = /^-?[0-9]+$/;
const DECIMAL = /^-?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const INT4 = [-(2n ** 31n), 2n ** 31n - 1n] as const;
const INT8 = [-(2n ** 63n), 2n ** 63n - 1n] as const;
/** Digits and exponent bounds under which a literal surely parses as numeric. */
const NUMERIC_MAX_DIGITS = 1000;

/** Thrown with a person-readable problem; the resolver adds field and position. */
export class ValueProblem extends Error {}

/** Parses one filter value for the kind. Throws ValueProblem for values that are simply wrong. */
export function typedValue(kind: ValueKind, text: string): TypedValue {
  switch (kind.kind) {
    case "text":
      return { ok: true, value: text };
    case "number":
      return { ok: true, value: numberValue(kind.sqlType, text) };
    case "boolean":
      if (text === "true" || text === "false") return { ok: true, value: text === "true" };
      throw new ValueProblem(`'${text}' is not a boolean; use true or false`);
    case "timestamp":
      return { ok: true, value: timestampValue(text) };
    case "enum":
      if (kind.values.includes(text)) return { ok: true, value: text };
      throw new ValueProblem(`'${text}' is not one of ${kind.values.join(", ")}`);
    case "id":
      return idValue(kind.sqlType, text);
    case "array":
      return idValue(kind.element, text);
    case "json":
      throw new ValueProblem("a JSON field can only be tested with =NULL or =!NULL, or through a nested path");
  }
}

function numberValue(sqlType: string, text: string): string | number {
  if (sqlType === "integer" || sqlType === "bigint") {
    if (!INTEGER.test(text)) throw new ValueProblem(`'${text}' is not an integer`);
    const value = BigInt(text);
    const [min, max] = sqlType === "integer" ? INT4 : INT8;
    if (value < min || value > max) throw new ValueProblem(`${text} is outside the range ${min}..${max}`);
    return value.toString();
  }
  if (!DECIMAL.test(text)) throw new ValueProblem(`'${text}' is not a number`);
  const value = Number(text);
  if (!Number.isFinite(value)) throw new ValueProblem(`${text} is too large`);
  // A numeric column is exact: bind the digits as written (PostgreSQL parses them), not a double
  // that rounds 12345678901234567.89 to 12345678901234568. Literals numeric cannot hold stay doubles.
  if (sqlType === "numeric" && fitsNumeric(text)) return text;
  return value;
}

/** Whether PostgreSQL's numeric parses the literal (it holds 131072 integer and 16383 fractional digits). */
function fitsNumeric(text: string): boolean {
  const [mantissa, exponent = "0"] = text.split(/[eE]/);
  return mantissa.length <= NUMERIC_MAX_DIGITS && Math.abs(Number(exponent)) <= NUMERIC_MAX_DIGITS;
}

function timestampValue(text: string): number {
  if (!INTEGER.test(text)) throw new ValueProblem(`'${text}' is not a date; dates are Unix milliseconds, e.g. 1700000000000`);
  const value = Number(text);
  if (!(value >= TIMESTAMP_MIN_MS && value <= TIMESTAMP_MAX_MS)) {
    throw new ValueProblem(`${text} is outside the supported dates (Unix ms ${TIMESTAMP_MIN_MS}..${TIMESTAMP_MAX_MS})`);
  }
  return value;
}

/** Whether an id column of this type can hold `text` at all. */
export function canHoldId(sqlType: IdSqlType, text: string): boolean {
  return idValue(sqlType, text).ok;
}

/** Ids are opaque: one the column type cannot hold matches nothing rather than failing. */
function idValue(sqlType: IdSqlType, text: string): TypedValue {
  switch (sqlType) {
    case "text":
      return { ok: true, value: text };
    case "uuid":
      return UUID.test(text) ? { ok: true, value: text.toLowerCase() } : { ok: false };
    case "bigint": {
      if (!INTEGER.test(text)) return { ok: false };
      const value = BigInt(text);
      return value < INT8[0] || value > INT8[1] ? { ok: false } : { ok: true, value: value.toString() };
    }
  }
}
