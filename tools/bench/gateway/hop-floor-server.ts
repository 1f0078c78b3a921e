// The far end of bench:gateway's hop floors, in its own process as core is: a bare node:http2
// server that checks the caller's token (libs/auth's cached verifier, as services do) and, when
// given statements, runs getMe's SQL for that caller on its own pg pool as named prepared
// statements (one execution per request: no read coalescing). Answers the result as JSON.
// argv[2]: { databaseUrl, schema, publicKeyPem, statements }; a binding "$caller" stands for the
// caller's user id, "$callers" for an array holding it. Sends its port over IPC.
import http2 from "node:http2";
import pg from "pg";
import { createTokenVerifier, importPublicKey } from "@signage/auth";
import type { Statement } from "../support/capture-sql.js";

const { databaseUrl, schema, publicKeyPem, statements } = JSON.parse(process.argv[2]) as { databaseUrl: string; schema: string; publicKeyPem: string; statements: Statement[] };
const verifier = createTokenVerifier({ publicKey: importPublicKey(publicKeyPem) });
// Idle connections stay open: a backend that exits takes its CPU out of the benchmark's PostgreSQL count.
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, idleTimeoutMillis: 0, options: `-c search_path=${schema}` });
const bind = (value: unknown, userId: string) => (value === "$caller" ? userId : value === "$callers" ? [userId] : value);

const server = http2.createServer();
server.on("stream", (stream, headers) => {
  stream.resume();
  const token = String(headers.authorization ?? "").replace(/^Bearer /, "");
  verifier.verify(token).then(
    async (caller) => {
      let rows: unknown[] = [];
      for (const [i, s] of statements.entries()) rows = (await pool.query({ name: `hop_floor_${i}`, text: s.sql, values: s.bindings.map((b) => bind(b, caller.userId)) })).rows;
      stream.respond({ ":status": 200, "content-type": "application/json" });
      stream.end(JSON.stringify(statements.length ? rows[0] ?? null : { email: caller.subject, role: caller.role }));
    },
    () => {
      stream.respond({ ":status": 401 });
      stream.end();
    },
  );
});
server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.address() as { port: number }).port }));
process.on("disconnect", () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
});
