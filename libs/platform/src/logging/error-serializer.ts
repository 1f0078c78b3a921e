import { pino } from "pino";

/**
 * Error fields that can carry row values, and so secrets or personal data, out of the
 * database into the logs. PostgreSQL's `detail` ("Failing row contains (…)" with every
 * column of the row, password hashes included; "Key (email)=(…) already exists"), `where`
 * (PL/pgSQL context, statements with their values), `internalQuery`; and bound values
 * (`parameters`, `bindings`) some drivers and query builders attach. The fields that name
 * what failed (code, constraint, table, column, schema, routine) stay, and so does the
 * message: knex prefixes it with the SQL text, whose values are `$n` placeholders.
 */
const VALUE_FIELDS = new Set(["detail", "where", "internalQuery", "parameters", "bindings"]);

/**
 * PostgreSQL's data exceptions (SQLSTATE class 22) quote the offending input in the
 * message itself: `invalid input syntax for type integer: "jane@example.com"`.
 */
const QUOTED = /"(?:[^"]|"")*"/g;
const MASK = '"[redacted]"';

type Serialized = Record<string, unknown>;

/**
 * pino's standard `err` serializer (type; message and stack with those of the causes
 * appended; the enumerable fields), without the fields above at any depth, and with the
 * quoted input masked in every message and stack when a data exception is anywhere in the
 * error (its causes, an AggregateError's errors, fields holding errors). Used for the `err`
 * key of every log line (createLogger).
 */
export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  return scrub(pino.stdSerializers.err(err), hasDataException(err), 0);
}

/** Deep enough for wrapped errors and their fields; past it a value is left out. */
const MAX_DEPTH = 8;

/**
 * A copy without VALUE_FIELDS at any depth (nested errors, plain objects, arrays), with quoted
 * input masked in every message and stack when `mask`.
 */
function scrub(value: unknown, mask: boolean, depth: number): unknown {
  if (depth > MAX_DEPTH) return "[too deep]";
  if (Array.isArray(value)) return value.map((item) => scrub(item, mask, depth + 1));
  if (value === null || typeof value !== "object" || value instanceof Date || ArrayBuffer.isView(value)) return value;
  const out: Serialized = {};
  for (const [key, field] of Object.entries(value)) {
    if (VALUE_FIELDS.has(key)) continue;
    out[key] = mask && (key === "message" || key === "stack") && typeof field === "string" ? field.replace(QUOTED, MASK) : scrub(field, mask, depth + 1);
  }
  return out;
}

/** A data exception anywhere in the error: its causes, an AggregateError's errors, fields holding errors. */
function hasDataException(err: Error): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): boolean => {
    if (!(e instanceof Error) || seen.has(e) || depth > MAX_DEPTH) return false;
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^22[0-9A-Z]{3}$/.test(code)) return true;
    const nested = [e.cause, ...(e instanceof AggregateError ? e.errors : []), ...Object.values(e)];
    return nested.some((n) => visit(n, depth + 1));
  };
  return visit(err, 0);
}
