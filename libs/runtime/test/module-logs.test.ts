// What a service module's log lines look like: `service` once, and a database error
// without the row values PostgreSQL puts in it (password hashes, emails...); and the
// module's pool taken from the environment it is handed.
import { Writable } from "node:stream";
import { trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSigningKeys } from "@signage/auth";
import { createTestDatabase, type TestDatabase } from "@signage/db";
import { createInProcessBus, type EventBus } from "@signage/events";
import { createLogger } from "@signage/platform";
import { startModule, type ModuleContext, type RunningModule, type ServiceModule } from "../src/index.js";

let db: TestDatabase;
let bus: EventBus;
const signingKeys = generateSigningKeys();
const running: RunningModule[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ prefix: "runtime_logs" });
  bus = createInProcessBus();
});
afterAll(async () => {
  for (const module of running) await module.stop();
  await bus?.close();
  await db?.drop();
});

/** Starts a module without operations in a process whose logger is named `processName`; returns its context and raw log text. */
async function startWithLogger(processName: string, env: Record<string, string> = {}): Promise<{ ctx: ModuleContext; text: () => string }> {
  const chunks: string[] = [];
  const destination = new Writable({ write: (chunk, _enc, cb) => (chunks.push(String(chunk)), cb()) });
  let ctx!: ModuleContext;
  const module: ServiceModule = {
    name: "reporting",
    create(moduleCtx) {
      ctx = moduleCtx;
      return { register() {}, directory: { membersOf: async () => [], access: async () => undefined } };
    },
  };
  running.push(
    await startModule(module, {
      databaseUrl: db.url,
      bus,
      keys: { signingKeys, publicKey: signingKeys.publicKey },
      tracer: trace.getTracer("test"),
      logger: createLogger({ name: processName, destination }),
      env,
    }),
  );
  return { ctx, text: () => chunks.join("") };
}

function lastLine(text: string): { raw: string; json: Record<string, unknown> } {
  const raw = text.trim().split("\n").at(-1)!;
  return { raw, json: JSON.parse(raw) as Record<string, unknown> };
}

describe("a module's log lines", () => {
  it("say `service` once in the module's own process", async () => {
    const { ctx, text } = await startWithLogger("reporting");
    ctx.logger.info("hello");
    const { raw, json } = lastLine(text());
    expect(raw.match(/"service":/g)).toHaveLength(1);
    expect(json).toMatchObject({ service: "reporting", msg: "hello" });
    expect(json).not.toHaveProperty("module");
  });

  it("name the module beside the process's service when one process hosts several", async () => {
    const { ctx, text } = await startWithLogger("signage");
    ctx.logger.info("hello");
    const { raw, json } = lastLine(text());
    expect(raw.match(/"service":/g)).toHaveLength(1);
    expect(json).toMatchObject({ service: "signage", module: "reporting" });
  });

  it("carry a PostgreSQL constraint violation without the row's values", async () => {
    const { ctx, text } = await startWithLogger("reporting");
    await ctx.knex.raw(`
      create table app_secret (
        id int primary key, email text not null, password_hash text not null,
        constraint app_secret_id_positive check (id > 0))`);
    const row = { id: -1, email: "jane.doe@example.com", password_hash: "$argon2id$v=19$secret-hash" };
    const err = await ctx.knex("app_secret").insert(row).then(() => undefined, (e: unknown) => e);
    // The database did put the row in the error: the log must not.
    expect((err as { detail?: string }).detail).toContain("jane.doe@example.com");

    ctx.logger.error({ err }, "insert failed");
    const { raw, json } = lastLine(text());
    expect(raw).not.toContain("jane.doe@example.com");
    expect(raw).not.toContain("argon2id");
    expect(json.err).toMatchObject({
      type: "DatabaseError",
      code: "23514",
      constraint: "app_secret_id_positive",
      table: "app_secret",
      routine: "ExecConstraints",
      // knex puts the statement in front of the message, with placeholders for the values.
      message: expect.stringMatching(/^insert into "app_secret" .*values \(\$1, \$2, \$3\) - new row for relation "app_secret" violates check constraint/),
    });
    expect(json.err).not.toHaveProperty("detail");
  });

  it("carry a data exception without the input PostgreSQL quotes in its message", async () => {
    const { ctx, text } = await startWithLogger("reporting");
    const err = await ctx.knex.raw("select ?::int as n", ["jane.doe@example.com"]).then(() => undefined, (e: unknown) => e);
    expect((err as Error).message).toContain("jane.doe@example.com");

    ctx.logger.error(err as Error, "query failed");
    const { raw, json } = lastLine(text());
    expect(raw).not.toContain("jane.doe@example.com");
    expect(json.err).toMatchObject({ code: "22P02", message: expect.stringContaining('invalid input syntax for type integer: "[redacted]"') });
  });
});

describe("a module's database pool", () => {
  it("is sized by the DATABASE_POOL_MAX of the environment the module is given", async () => {
    const { ctx } = await startWithLogger("reporting", { DATABASE_POOL_MAX: "3" });
    expect((ctx.knex.client as { config: { pool: { max: number } } }).config.pool.max).toBe(3);
  });
});
