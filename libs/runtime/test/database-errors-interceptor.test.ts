// A transaction PostgreSQL rolls back because of a concurrent one (a real deadlock between two
// connections here) reaches the caller as 409-mapped Aborted with a clear "retry", not a 500.
import knexFactory, { type Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError, createContextValues, type UnaryRequest } from "@connectrpc/connect";
import { createTestDatabase, type TestDatabase } from "@signage/db";
import { databaseErrorsInterceptor } from "../src/errors/database-errors-interceptor.js";

let db: TestDatabase;
let knex: Knex;

beforeAll(async () => {
  db = await createTestDatabase({ prefix: "runtime_conflict" });
  knex = knexFactory({ client: "pg", connection: db.url, pool: { min: 0, max: 4 } });
  await knex.schema.createTable("row", (t) => t.integer("id").primary());
  await knex("row").insert([{ id: 1 }, { id: 2 }]);
});
afterAll(async () => {
  await knex?.destroy();
  await db?.drop();
});

/** Two transactions locking rows 1 and 2 in opposite orders: PostgreSQL breaks the cycle by failing one. */
async function deadlock(): Promise<unknown> {
  let bothHoldOne!: () => void;
  let held = 0;
  const holding = new Promise<void>((r) => (bothHoldOne = r));
  const run = (first: number, second: number) =>
    knex.transaction(async (trx) => {
      await trx("row").where({ id: first }).forUpdate();
      if (++held === 2) bothHoldOne();
      await holding;
      await trx("row").where({ id: second }).forUpdate();
    });
  const outcomes = await Promise.allSettled([run(1, 2), run(2, 1)]);
  const failed = outcomes.find((o) => o.status === "rejected");
  if (!failed || failed.status !== "rejected") throw new Error("expected one transaction to be rolled back");
  return failed.reason;
}

const request = { contextValues: createContextValues(), header: new Headers() } as unknown as UnaryRequest;

describe("databaseErrorsInterceptor: concurrent writes", () => {
  it("a deadlock's rollback is Aborted (HTTP 409) request.error.concurrentUpdate, saying to retry", async () => {
    const error = await deadlock();
    expect((error as { code?: string }).code).toBe("40P01");
    const call = databaseErrorsInterceptor(async () => {
      throw error;
    });
    const thrown = await call(request).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ConnectError);
    expect((thrown as ConnectError).code).toBe(Code.Aborted);
    expect((thrown as ConnectError).rawMessage).toMatch(/concurrent change.*nothing was changed.*Retry/);
  });

  it("other errors pass through unchanged", async () => {
    const other = Object.assign(new Error("unique"), { code: "23505" });
    const call = databaseErrorsInterceptor(async () => {
      throw other;
    });
    expect(await call(request).catch((e: unknown) => e)).toBe(other);
  });
});

describe("databaseErrorsInterceptor: text PostgreSQL cannot store", () => {
  it("a NUL character in a written value is InvalidArgument request.error.invalidText, not a 500", async () => {
    await knex.schema.createTable("named", (t) => t.text("name"));
    const error = await knex("named").insert({ name: "a\u0000b" }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe("22021");
    const call = databaseErrorsInterceptor(async () => {
      throw error;
    });
    const thrown = (await call(request).catch((e: unknown) => e)) as ConnectError;
    expect(thrown).toBeInstanceOf(ConnectError);
    expect(thrown.code).toBe(Code.InvalidArgument);
    expect(thrown.rawMessage).toMatch(/U\+0000/);
    expect(await knex("named").count({ n: "*" })).toEqual([{ n: "0" }]);
  });
});

describe("databaseErrorsInterceptor: jsonb PostgreSQL cannot store", () => {
  it("an unpaired UTF-16 surrogate in a jsonb value (JSON.stringify writes it as \\ud800) is InvalidArgument request.error.invalidText, not a 500", async () => {
    await knex.schema.createTable("documented", (t) => t.jsonb("data"));
    for (const lone of ["\ud800", "\udc00", "a\ud800\ud800b"]) {
      const error = await knex("documented").insert({ data: JSON.stringify({ description: lone }) }).catch((e: unknown) => e);
      expect((error as { code?: string }).code).toBe("22P02");
      const call = databaseErrorsInterceptor(async () => {
        throw error;
      });
      const thrown = (await call(request).catch((e: unknown) => e)) as ConnectError;
      expect(thrown).toBeInstanceOf(ConnectError);
      expect(thrown.code).toBe(Code.InvalidArgument);
      expect(thrown.rawMessage).toMatch(/unpaired UTF-16 surrogate/);
    }
    expect(await knex("documented").count({ n: "*" })).toEqual([{ n: "0" }]);
  });

  it("other invalid input (a malformed uuid) stays a fault of ours", async () => {
    const error = await knex.raw("select ?::uuid", ["not-a-uuid"]).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe("22P02");
    const call = databaseErrorsInterceptor(async () => {
      throw error;
    });
    expect(await call(request).catch((e: unknown) => e)).toBe(error);
  });
});
