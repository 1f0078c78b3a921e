// Team assignments of resources named by id, against real PostgreSQL. Document 2: "restricted =
// sees only team-assigned resources": a resource's teams must be found however its UUID is spelt
// (RFC 9562 UUIDs compare case-insensitively), or a write check would take a read-only file for
// one without teams.
import knexFactory, { type Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@signage/db";
import { createTeamAssignmentTable } from "../src/teams/team-tables.js";
import { assignmentsOfResources } from "../src/teams/team-assignment-store.js";

let db: TestDatabase;
let knex: Knex;
const FILE = "0a0b0c0d-0000-4000-8000-00000000abcd";
const TEAM = "00000000-0000-4000-8000-000000000001";

beforeAll(async () => {
  db = await createTestDatabase({ prefix: "runtime_team_assignment_store" });
  knex = knexFactory({ client: "pg", connection: db.url, pool: { min: 0, max: 2 } });
  await createTeamAssignmentTable(knex);
  await knex("team_assignment").insert({ resource_type: "file", resource_id: FILE, team_id: TEAM, read_only: true, customer_id: 1 });
});
afterAll(async () => {
  await knex?.destroy();
  await db?.drop();
});

describe("assignmentsOfResources", () => {
  it("finds a resource's teams under the id as given, in capitals too", async () => {
    const upper = FILE.toUpperCase();
    const found = await assignmentsOfResources(knex, [upper, FILE, "not-a-uuid"]);
    expect(found.get(upper)).toEqual([{ teamId: TEAM, readOnly: true }]);
    expect(found.get(FILE)).toEqual([{ teamId: TEAM, readOnly: true }]);
    expect(found.get("not-a-uuid")).toEqual([]);
  });
});
