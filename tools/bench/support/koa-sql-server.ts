// The edge stack's own floor: the bare server's work (the list SQL on the service's pool,
// rows answered as JSON) behind a Koa app with one @koa/router GET route, the framework the
// gateway is built on, without any of the gateway's middleware (tracing, logging, CORS, error
// mapping), auth or RPC. Its distance to the bare floor is what Koa and the router cost alone.
import { createServer } from "node:http";
import Koa from "koa";
import Router from "@koa/router";
import type { Knex } from "knex";
import type { Statement } from "./capture-sql.js";
import { listenLocal, type LocalServer } from "./local-server.js";
import { poolSqlRunner } from "./pool-sql.js";

export async function startKoaSqlServer(knex: Knex, statements: Statement[]): Promise<LocalServer> {
  const runList = poolSqlRunner(knex, statements);
  const app = new Koa();
  const router = new Router();
  router.get("/", async (ctx) => {
    // Koa serialises an object body with JSON.stringify and sets the JSON content type.
    ctx.body = await runList();
  });
  app.use(router.routes());
  return listenLocal(createServer(app.callback()));
}
