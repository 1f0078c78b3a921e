import type { Knex } from "knex";

/** Stands for the i-th argument while the query is compiled once. */
class Param {
  constructor(readonly index: number) {}
}

interface Compiled {
  text: string;
  values: unknown[];
}

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] } | string): Promise<{ rows: unknown[] }>;
  /** pg's record of the statements this connection has prepared, by name. */
  connection?: { parsedStatements?: Record<string, string> };
}

/** SQLSTATE 0A000 "cached plan must not change result type": a migration changed a table the statement reads. */
const PLAN_INVALIDATED = "0A000";

export interface PreparedQuery<Args extends readonly unknown[], Row> {
  /** Runs the statement on a pooled connection (never inside a transaction). */
  rows(knex: Knex, ...args: Args): Promise<Row[]>;
  first(knex: Knex, ...args: Args): Promise<Row | undefined>;
}

/**
 * A hot read built with Knex once and then run as a named PostgreSQL prepared
 * statement: no query building per call, and no parse/plan on the server after a
 * connection's first use. `build` receives placeholders for the arguments and must
 * produce the same SQL text whatever their values (plain scalar bindings only).
 * The name must be unique per pool; the statement lives on each pooled connection.
 */
export function preparedQuery<Args extends readonly unknown[], Row = Record<string, unknown>>(
  name: string,
  arity: Args["length"],
  /** Receives placeholders typed as the arguments they stand for (they are bindings, never values to inspect). */
  build: (knex: Knex, ...params: Args) => Knex.QueryBuilder | Knex.Raw,
): PreparedQuery<Args, Row> {
  const compiled = new WeakMap<Knex, Compiled>();

  function compile(knex: Knex): Compiled {
    let found = compiled.get(knex);
    if (!found) {
      const params = Array.from({ length: arity }, (_, i) => new Param(i));
      const native = build(knex, ...(params as unknown as Args)).toSQL().toNative();
      found = { text: native.sql, values: native.bindings as unknown[] };
      compiled.set(knex, found);
    }
    return found;
  }

  async function rows(knex: Knex, ...args: Args): Promise<Row[]> {
    const { text, values } = compile(knex);
    const bound = values.map((v) => (v instanceof Param ? args[v.index] : v));
    // Observers of knex's "query" event (debug logs, SQL capture) still see the statement.
    knex.client.emit("query", { method: "select", sql: text, bindings: bound, prepared: name });
    const connection = (await knex.client.acquireConnection()) as PgConnection;
    try {
      try {
        return (await connection.query({ name, text, values: bound })).rows as Row[];
      } catch (err) {
        if ((err as { code?: string }).code !== PLAN_INVALIDATED) throw err;
        // Prepare it afresh on this connection (a rolling deploy's migration may add columns).
        await connection.query(`DEALLOCATE "${name}"`);
        delete connection.connection?.parsedStatements?.[name];
        return (await connection.query({ name, text, values: bound })).rows as Row[];
      }
    } finally {
      await knex.client.releaseConnection(connection);
    }
  }

  return {
    rows,
    async first(knex, ...args) {
      return (await rows(knex, ...args))[0];
    },
  };
}
