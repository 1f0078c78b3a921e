// Row values in database errors stay out of the logs at every level of a cause chain
// (libs/runtime/test/module-logs.test.ts does it with real PostgreSQL errors).
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { memoryLogger } from "./support/memory-logger.js";

/** The fields node-postgres copies from an ErrorResponse, as pg's DatabaseError has them. */
function pgLikeError(): Error {
  return Object.assign(new Error('null value in column "email" of relation "app_user" violates not-null constraint'), {
    code: "23502",
    table: "app_user",
    column: "email",
    detail: "Failing row contains (7, null, $argon2id$secret-hash, TOTPSECRET).",
    where: "SQL statement \"insert into app_user values (7, 'x')\"",
    internalQuery: "insert into app_user values (7, 'x')",
    parameters: ["jane.doe@example.com"],
  });
}

describe("the err serializer", () => {
  it("drops detail, where, internalQuery and parameters, also from errors held in fields", () => {
    const { logger, lines } = memoryLogger();
    const wrapper = Object.assign(new Error("transaction failed"), { original: pgLikeError() });
    logger.error({ err: wrapper }, "failed");
    logger.error({ err: pgLikeError() }, "failed");
    const [wrapped, direct] = lines().slice(-2);
    for (const line of [wrapped, direct]) {
      const raw = JSON.stringify(line);
      for (const secret of ["argon2id", "TOTPSECRET", "jane.doe", "Failing row", "SQL statement"]) expect(raw).not.toContain(secret);
    }
    expect(direct!.err).toMatchObject({ code: "23502", table: "app_user", column: "email", message: expect.stringContaining("not-null") });
    expect((wrapped!.err as { original: unknown }).original).toMatchObject({ code: "23502", table: "app_user" });
  });

  it("masks the quoted input of a data exception wrapped in a ConnectError", () => {
    const { logger, lines } = memoryLogger();
    const dataException = Object.assign(new Error('invalid input syntax for type integer: "jane.doe@example.com"'), { code: "22P02" });
    logger.error({ err: new ConnectError("internal error", Code.Internal, undefined, undefined, dataException) }, "rpc handler failed");
    const err = lines().at(-1)!.err as { message: string; stack: string };
    expect(JSON.stringify(err)).not.toContain("jane.doe");
    expect(err.message).toContain('invalid input syntax for type integer: "[redacted]"');
  });

  it("also masks a data exception held in a field or aggregated, and drops value fields of plain objects", () => {
    const { logger, lines } = memoryLogger();
    const dataException = () => Object.assign(new Error('invalid input syntax for type uuid: "jane.doe@example.com"'), { code: "22P02" });
    logger.error({ err: Object.assign(new Error("batch failed"), { original: dataException() }) }, "failed");
    logger.error({ err: new AggregateError([dataException()], "several failed") }, "failed");
    logger.error({ err: Object.assign(new Error("insert failed"), { response: { row: { detail: "Failing row contains (jane.doe@example.com)" } } }) }, "failed");
    for (const line of lines().slice(-3)) expect(JSON.stringify(line)).not.toContain("jane.doe");
  });
});
