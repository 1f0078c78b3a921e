import pg from "pg";
import { fastTextArrayParser } from "./array-parsers.js";

const INT8_OID = 20;
/** text[], varchar[], uuid[] */
const TEXT_LIKE_ARRAY_OIDS = [1009, 1015, 2951];

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
 * a rejected query. Text-like arrays skip pg's generic array grammar when
 * they can (array-parsers.ts).
 */
export function createTypeOverrides(): TypeParsers {
  const arrays = new Map(TEXT_LIKE_ARRAY_OIDS.map((oid) => [oid, fastTextArrayParser(pg.types.getTypeParser(oid, "text"))]));
  return {
    getTypeParser(oid, format = "text") {
      if (format !== "text") return pg.types.getTypeParser(oid, format as "text");
      if (oid === INT8_OID) return parseInt8;
      return arrays.get(oid) ?? pg.types.getTypeParser(oid, "text");
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
