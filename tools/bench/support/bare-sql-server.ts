// The floor of an HTTP list endpoint on this machine: a bare node:http server that runs
// the statements a request ran (all at once, on the service's own pool, as listRpc sends
// page and COUNT together) and answers their rows as JSON. No auth, routing, RPC, mapping
// or URL signing: what is left is one HTTP hop plus the SQL, which no implementation beats.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Knex } from "knex";
import type { Statement } from "./capture-sql.js";
import type { PgPool } from "./pg-pool.js";

export interface BareSqlServer {
  url: string;
  close(): Promise<void>;
}

export async function startBareSqlServer(knex: Knex, statements: Statement[]): Promise<BareSqlServer> {
  // The pool's own pg connections run the statements exactly as captured ($n placeholders).
  const pool = knex.client as unknown as PgPool;
  const run = async (s: Statement) => {
    const connection = await pool.acquireConnection();
    try {
      return await connection.query(s.sql, s.bindings);
    } finally {
      await pool.releaseConnection(connection);
    }
  };
  const server = createServer((_req, res) => {
    Promise.all(statements.map(run)).then(
      (results) => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(results.map((r) => r.rows)));
      },
      (error: Error) => {
        res.statusCode = 500;
        res.end(error.message);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
