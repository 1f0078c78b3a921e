// bench:gateway's hop floors: the cluster-shaped hop with nothing of the platform on either side.
// A bare Koa app (as baseline A) forwards each request's Authorization over one raw node:http2
// session to hop-floor-server.ts in its own process (as core runs), which checks the token and,
// in the second floor, runs getMe's SQL once per request; the JSON answer is passed back.
// Read against them, a missed throughput target shows what the hop itself costs on this machine
// and what the database read adds, apart from the platform's own work.
import { fork, type ChildProcess } from "node:child_process";
import http2 from "node:http2";
import Koa from "koa";
import type { Statement } from "../support/capture-sql.js";

export interface HopFloor {
  url: string;
  /** The far end's process, for its CPU. */
  pid: number;
  close(): Promise<void>;
}

/** getMe's statements as captured for `userId`, with its id (alone or in an id array) as the caller's placeholder. */
export function forAnyCaller(statements: Statement[], userId: string): Statement[] {
  const mark = (b: unknown) => (b === userId ? "$caller" : Array.isArray(b) && b.length === 1 && b[0] === userId ? "$callers" : b);
  return statements.map((s) => ({ sql: s.sql, bindings: s.bindings.map(mark) }));
}

export async function startHopFloor(options: { databaseUrl: string; schema: string; publicKeyPem: string; statements: Statement[] }): Promise<HopFloor> {
  const child: ChildProcess = fork(new URL("./hop-floor-server.ts", import.meta.url), [JSON.stringify(options)], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { port: number }));
    child.once("exit", (code) => reject(new Error(`hop floor server exited (${code}) before listening`)));
  });
  const session = http2.connect(`http://127.0.0.1:${port}`);
  const app = new Koa();
  app.use(async (ctx) => {
    ctx.body = await new Promise((resolve, reject) => {
      const stream = session.request({ ":method": "POST", ":path": "/me", authorization: ctx.get("authorization") });
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString() || "null")));
      stream.on("error", reject);
      stream.end();
    });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((r) => server.once("listening", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    pid: child.pid!,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      session.close();
      child.disconnect();
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
    },
  };
}
