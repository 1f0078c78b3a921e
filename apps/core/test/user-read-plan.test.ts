// Every authenticated call to core reads its user by id (current-user-check.ts), so that read must
// not be planned anew each time. PostgreSQL plans a prepared statement's first five executions for
// their parameters, then keeps a generic plan when it is not costlier; with `u.id = any($1)` it
// never is, and every execution was planned (~0.2 ms of server CPU). A lone read therefore takes
// the single-id statement, and concurrent reads still share one `any` statement.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import knexFactory, { type Knex } from "knex";
import { startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { coreModule } from "../src/module.js";
import { findUserById } from "../src/users/user-repository.js";

let platform: TestPlatform;
let oneConnection: Knex;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], prefix: "core_user_read_plan_test" });
  // One pooled connection: its prepared statements and their plan counts are the ones examined.
  oneConnection = knexFactory({ ...platform.knexOf("core").client.config, pool: { min: 1, max: 1 } });
});
afterAll(async () => {
  await oneConnection?.destroy();
  await platform?.close();
});

const planCounts = async (name: string) =>
  (await oneConnection.raw("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = ?", [name])).rows[0] as { generic_plans: string; custom_plans: string } | undefined;

describe("the per-call user read", () => {
  it("a lone read runs the single-id statement, on a generic plan from the sixth execution on", async () => {
    const admin = await platform.knexOf("core")("app_user").where({ email: TEST_ADMIN.email }).first();
    for (let i = 0; i < 10; i++) expect((await findUserById(oneConnection, admin.id))?.email).toBe(TEST_ADMIN.email);
    const single = await planCounts("core_user_by_id");
    expect(single).toBeDefined();
    expect(Number(single!.custom_plans)).toBeLessThanOrEqual(5);
    expect(Number(single!.generic_plans)).toBeGreaterThanOrEqual(5);
  });

  it("reads of one event-loop turn still share one statement (= any), each caller getting its own row", async () => {
    const ids = (await platform.knexOf("core")("app_user").select("id", "email")) as { id: string; email: string }[];
    const unknown = "01a21691-0000-7000-8000-000000000000";
    const rows = await Promise.all([...ids.map((u) => findUserById(oneConnection, u.id)), findUserById(oneConnection, unknown)]);
    expect(rows.map((r) => r?.email)).toEqual([...ids.map((u) => u.email), undefined]);
    expect(await planCounts("core_users_by_ids")).toMatchObject({ custom_plans: expect.anything() });
  });
});
