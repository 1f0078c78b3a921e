import type { FilterOperator } from "../filter/ast.js";
import type { ValueKind } from "../resolve/value-kind.js";
import { FALSE_FRAGMENT, type SqlFragment } from "./fragment.js";

/** Operators that hold for a row; ≠ and ∉ are their negations (see negate). */
export type PositiveOperator = Exclude<FilterOperator, "≠" | "∉">;

/** SQL type names by kind; a closed set, never taken from input. */
const SCALAR_CAST: Record<string, string> = {
  integer: "integer",
  bigint: "bigint",
  "double precision": "double precision",
  numeric: "numeric",
  text: "text",
  uuid: "uuid",
  boolean: "boolean",
  timestamptz: "timestamptz",
};

const RANGE_OPERATOR: Record<string, string> = { ">": ">", "≥": ">=", "<": "<", "≤": "<=" };

/** A predicate that is true exactly when the positive comparison holds (NULL counts as false). */
export function positivePredicate(expr: SqlFragment, kind: ValueKind, operator: PositiveOperator, values: readonly unknown[]): SqlFragment {
  if (values.length === 0) return FALSE_FRAGMENT;
  const e = expr.sql;
  const b = expr.bindings;
  switch (kind.kind) {
    case "text":
    case "enum":
      if (operator === "∈") return { sql: `${e} = any(?::text[])`, bindings: [...b, values] };
      if (operator === ":" && kind.kind === "text") return { sql: `${e} like ?`, bindings: [...b, `%${escapeLike(values[0] as string)}%`] };
      if (operator === "^") return { sql: `${e} like ?`, bindings: [...b, `${escapeLike(values[0] as string)}%`] };
      return { sql: `${e} = ?`, bindings: [...b, values[0]] };
    case "number":
    case "boolean":
    case "id": {
      const cast = SCALAR_CAST[kind.kind === "boolean" ? "boolean" : kind.sqlType];
      if (operator === "∈") return { sql: `${e} = any(?::${cast}[])`, bindings: [...b, values] };
      return { sql: `${e} ${RANGE_OPERATOR[operator] ?? "="} ?::${cast}`, bindings: [...b, values[0]] };
    }
    case "timestamp":
      return kind.storage === "epochMs" ? epochMsPredicate(expr, operator, values as number[]) : timestamptzPredicate(expr, operator, values as number[]);
    case "array": {
      const cast = SCALAR_CAST[kind.element];
      // Containment of one element and overlap with a set; both served by a GIN index.
      if (operator === "∈") return { sql: `${e} && ?::${cast}[]`, bindings: [...b, values] };
      return { sql: `${e} @> ?::${cast}[]`, bindings: [...b, [values[0]]] };
    }
    case "json":
      throw new Error("unreachable: JSON fields only take null checks");
  }
}

function epochMsPredicate(expr: SqlFragment, operator: PositiveOperator, values: readonly number[]): SqlFragment {
  if (operator === "∈") return { sql: `${expr.sql} = any(?::bigint[])`, bindings: [...expr.bindings, values.map(String)] };
  return { sql: `${expr.sql} ${RANGE_OPERATOR[operator] ?? "="} ?::bigint`, bindings: [...expr.bindings, String(values[0])] };
}

/**
 * "dates are Unix milliseconds": a timestamptz compares as its value floored to the ms, written
 * as half-open ranges so a btree index on the column still serves it.
 */
function timestamptzPredicate(expr: SqlFragment, operator: PositiveOperator, values: readonly number[]): SqlFragment {
  const e = expr.sql;
  const b = expr.bindings;
  const at = (ms: number) => new Date(ms).toISOString();
  const ms = values[0];
  switch (operator) {
    case "∈":
      return { sql: `date_trunc('milliseconds', ${e}) = any(?::timestamptz[])`, bindings: [...b, values.map(at)] };
    case ">":
      return { sql: `${e} >= ?::timestamptz`, bindings: [...b, at(ms + 1)] };
    case "≥":
      return { sql: `${e} >= ?::timestamptz`, bindings: [...b, at(ms)] };
    case "<":
      return { sql: `${e} < ?::timestamptz`, bindings: [...b, at(ms)] };
    case "≤":
      return { sql: `${e} < ?::timestamptz`, bindings: [...b, at(ms + 1)] };
    default:
      return { sql: `(${e} >= ?::timestamptz and ${e} < ?::timestamptz)`, bindings: [...b, at(ms), ...b, at(ms + 1)] };
  }
}

/** `=NULL`: "null or empty collection". */
export function isNullPredicate(expr: SqlFragment, kind: ValueKind): SqlFragment {
  switch (kind.kind) {
    case "array":
      return { sql: `coalesce(cardinality(${expr.sql}), 0) = 0`, bindings: expr.bindings };
    case "json":
      return { sql: `coalesce(${asJsonb(expr.sql)}, 'null'::jsonb) in ('null'::jsonb, '[]'::jsonb, '{}'::jsonb)`, bindings: expr.bindings };
    default:
      return { sql: `${expr.sql} is null`, bindings: expr.bindings };
  }
}

/** `=!NULL`: "not null or non-empty collection" — the exact negation of isNullPredicate. */
export function isNotNullPredicate(expr: SqlFragment, kind: ValueKind): SqlFragment {
  switch (kind.kind) {
    case "array":
      return { sql: `cardinality(${expr.sql}) > 0`, bindings: expr.bindings };
    case "json":
      return { sql: `${asJsonb(expr.sql)} not in ('null'::jsonb, '[]'::jsonb, '{}'::jsonb)`, bindings: expr.bindings };
    default:
      return { sql: `${expr.sql} is not null`, bindings: expr.bindings };
  }
}

/**
 * A computed JSON field may yield `json` (json_build_object, json_agg) where columns hold
 * jsonb; `json` has no equality, so compare both as jsonb (a no-op cast on jsonb).
 */
function asJsonb(sql: string): string {
  return `(${sql})::jsonb`;
}

/** ≠ and ∉ hold exactly where = and : do not, rows with NULL included. */
export function negate(predicate: SqlFragment): SqlFragment {
  if (predicate === FALSE_FRAGMENT) return { sql: "true", bindings: [] };
  return { sql: `not coalesce((${predicate.sql}), false)`, bindings: predicate.bindings };
}

/** LIKE treats % _ and \ specially; filters mean them literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
