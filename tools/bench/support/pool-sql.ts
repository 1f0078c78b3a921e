// The list SQL as a floor server runs it: every captured statement at once, each on its own
// connection from the service's Knex pool (as listRpc sends page and COUNT together), exactly
// as captured ($n placeholders), without Knex's query building in the figure.
import type { Knex } from "knex";
import type { Statement } from "./capture-sql.js";
import type { PgPool } from "./pg-pool.js";

/** Runs `statements` concurrently on `knex`'s pool; resolves to each statement's rows, in order. */
export function poolSqlRunner(knex: Knex, statements: Statement[]): () => Promise<unknown[][]> {
  const pool = knex.client as unknown as PgPool;
  const run = async (s: Statement) => {
    const connection = await pool.acquireConnection();
    try {
      return (await connection.query(s.sql, s.bindings)).rows;
    } finally {
      await pool.releaseConnection(connection);
    }
  };
  return () => Promise.all(statements.map(run));
}
