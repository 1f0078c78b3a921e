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
 * quoted input masked when a data exception is anywhere in the cause chain (its message
 * is in the combined one). Used for the `err` key of every log line (createLogger).
 */
export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const serialized = scrub(pino.stdSerializers.err(err) as unknown as Serialized);
  if (!hasDataException(err)) return serialized;
  for (const key of ["message", "stack"]) {
    const text = serialized[key];
    if (typeof text === "string") serialized[key] = text.replace(QUOTED, MASK);
  }
  return serialized;
}

/** A copy without VALUE_FIELDS, also inside nested serialized errors (fields holding errors, aggregateErrors). */
function scrub(serialized: Serialized): Serialized {
  const out: Serialized = {};
  for (const [key, value] of Object.entries(serialized)) {
    if (VALUE_FIELDS.has(key)) continue;
    if (Array.isArray(value)) out[key] = value.map((item) => (isSerializedError(item) ? scrub(item) : item));
    else out[key] = isSerializedError(value) ? scrub(value) : value;
  }
  return out;
}

function isSerializedError(value: unknown): value is Serialized {
  return typeof value === "object" && value !== null && "stack" in value && "message" in value && "type" in value;
}

function hasDataException(err: Error): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = err; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^22[0-9A-Z]{3}$/.test(code)) return true;
  }
  return false;
}
