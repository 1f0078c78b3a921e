// The floor of an HTTP list endpoint on this machine: a bare node:http server that runs
// the statements a request ran (all at once, on the service's own pool, as listRpc sends
// page and COUNT together) and answers their rows as JSON. No auth, routing, RPC, mapping
// or URL signing: what is left is one HTTP hop plus the SQL, which no implementation beats.
import { createServer } from "node:http";
import type { Knex } from "knex";
import type { Statement } from "./capture-sql.js";
import { listenLocal, type LocalServer } from "./local-server.js";
import { poolSqlRunner } from "./pool-sql.js";

export type BareSqlServer = LocalServer;

export async function startBareSqlServer(knex: Knex, statements: Statement[]): Promise<BareSqlServer> {
  const runList = poolSqlRunner(knex, statements);
  const server = createServer((_req, res) => {
    runList().then(
      (rows) => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(rows));
      },
      (error: Error) => {
        res.statusCode = 500;
        res.end(error.message);
      },
    );
  });
  return listenLocal(server);
}
