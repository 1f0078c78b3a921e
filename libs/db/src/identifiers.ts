/**
 * Schema and database names are interpolated into DDL (CREATE SCHEMA,
 * CREATE/DROP DATABASE) where bind parameters are not allowed, so they are
 * restricted to plain lower-case identifiers instead of relying on quoting.
 */
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertIdentifier(kind: string, value: string): string {
  if (!IDENTIFIER.test(value)) {
    throw new Error(
      `Invalid ${kind} name ${JSON.stringify(value)}: expected /^[a-z_][a-z0-9_]{0,62}$/`,
    );
  }
  return value;
}

export function quoteIdentifier(value: string): string {
  return `"${value.replace(/"/g, '""')}"`;
}
