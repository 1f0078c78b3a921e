import pg from "pg";

const INT8_OID = 20;

export interface TypeParsers {
  getTypeParser(oid: number, format?: string): (value: string) => unknown;
}

/**
 * Per-connection type parsers, handed to each pg Client through knex's
 * `connection.types`, so the process-global `pg.types` is read but never
 * mutated (other pools in the process keep pg's defaults).
 *
 * int8 (bigint: count(*), sum(int), bigserial) becomes a JS number. Values
 * beyond 2^53 throw instead of silently losing precision; pg turns that into
 * a rejected query.
 */
export function createTypeOverrides(): TypeParsers {
  return {
    getTypeParser(oid, format = "text") {
      if (oid === INT8_OID && format === "text") return parseInt8;
      return pg.types.getTypeParser(oid, format as "text");
    },
  };
}

export function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) {
    throw new RangeError(`int8 value ${value} exceeds Number.MAX_SAFE_INTEGER; cast it to text or numeric in SQL`);
  }
  return n;
}
