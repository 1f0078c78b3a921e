// The replica current-user check (replica-current-user.ts) against real PostgreSQL, fed by
// core's user.access.changed events as the team replica applies them. Document 2: "Role per
// operation as listed": a demoted or deleted user must not keep the old powers on a service until
// the token expires, and a token issued after a change the replica has not heard of yet is no
// outdated token.
import knexFactory, { type Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError, createContextValues } from "@connectrpc/connect";
import { readErrorDetail, type Caller } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { createTestDatabase, type TestDatabase } from "@signage/db";
import { addUserAccountColumns, createTeamReplicaTables } from "../src/teams/team-tables.js";
import { createReplicaVersionTable } from "../src/teams/replica-versions.js";
import { createTenantReplicaTable, markTenantDeleted } from "../src/tenants/tenant-replica.js";
import { applyTeamEvent } from "../src/teams/team-replica-consumer.js";
import { replicaCurrentUserCheck, replicaUsers, STALE_READ_MARGIN_MS } from "../src/teams/replica-current-user.js";
import { teamResourceTables } from "../src/teams/team-resource-tables.js";

let db: TestDatabase;
let knex: Knex;
let seq = 0;

beforeAll(async () => {
  db = await createTestDatabase({ prefix: "runtime_replica_user" });
  knex = knexFactory({ client: "pg", connection: db.url, pool: { min: 0, max: 4 } });
  await createTeamReplicaTables(knex);
  await addUserAccountColumns(knex);
  await createReplicaVersionTable(knex);
  await createTenantReplicaTable(knex);
});
afterAll(async () => {
  await knex?.destroy();
  await db?.drop();
});

const T0 = Date.parse("2026-11-26T10:00:00.500Z");

function userAccess(userId: string, facts: { customerId?: number; role?: string; asOf?: number; deleted?: boolean }) {
  const data = { userId, customerId: facts.customerId ?? 1, restricted: false, deleted: facts.deleted ?? false, role: facts.role, asOf: facts.asOf === undefined ? undefined : new Date(facts.asOf).toISOString() };
  return knex.transaction((trx) => applyTeamEvent(trx, { tables: teamResourceTables([]) }, "user.access.changed", data, ++seq));
}

const caller = (userId: string, role: Role, issuedAtMs: number, customerId = 1): Caller => ({
  subject: `${userId}@c.test`,
  userId,
  customerId,
  role,
  networkOwner: false,
  twoFactor: false,
  kind: "user",
  issuedAt: Math.floor(issuedAtMs / 1000),
  token: "t",
});

async function verdict(c: Caller): Promise<string> {
  try {
    await replicaCurrentUserCheck(replicaUsers(knex)).check(c, createContextValues());
    return "ok";
  } catch (err) {
    const e = ConnectError.from(err);
    expect(e.code).toBe(Code.Unauthenticated);
    return readErrorDetail(e)?.key ?? "no key";
  }
}

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe("replica current-user check", () => {
  it("a user the replica has not heard of passes (created a moment ago), and so does one known only from events without a role", async () => {
    expect(await verdict(caller(id(1), Role.EDITOR, T0))).toBe("ok");
    await userAccess(id(2), {});
    expect(await verdict(caller(id(2), Role.EDITOR, T0))).toBe("ok");
  });

  it("a token issued before a role change is refused with auth.error.tokenOutdated; one issued after it passes", async () => {
    await userAccess(id(3), { role: "VIEWER", asOf: T0 });
    expect(await verdict(caller(id(3), Role.EDITOR, T0 - 2000))).toBe("auth.error.tokenOutdated");
    // iat has whole seconds: a token of the same second, issued before the change, is older too.
    expect(await verdict(caller(id(3), Role.EDITOR, T0 - 400))).toBe("auth.error.tokenOutdated");
    expect(await verdict(caller(id(3), Role.VIEWER, T0 + 1000))).toBe("ok");
    expect(await verdict(caller(id(3), Role.VIEWER, T0 - 2000))).toBe("ok");
  });

  it("a token issued well after the replica's facts passes although they differ: the change it carries has not arrived yet", async () => {
    await userAccess(id(4), { role: "VIEWER", asOf: T0 });
    expect(await verdict(caller(id(4), Role.OWNER, T0 + STALE_READ_MARGIN_MS + 1000))).toBe("ok");
  });

  // Document 2: "Role per operation as listed". A login reads the user, checks the password and
  // TOTP, writes last_login, then signs: a demotion committed in between leaves a token with the
  // old role whose iat (core's clock, whole seconds) is after the demotion's asOf (PostgreSQL's
  // clock_timestamp(), read before its commit). Core refuses it; media must too, not for 900 s.
  it("'Role per operation as listed': a token with the old role signed just after a demotion (the login read the user before it committed) is refused", async () => {
    await userAccess(id(8), { role: "VIEWER", asOf: T0 });
    for (const signedAfter of [600, 1500, 5000, STALE_READ_MARGIN_MS - 1000]) {
      expect(await verdict(caller(id(8), Role.EDITOR, T0 + signedAfter)), `signed ${signedAfter} ms after`).toBe("auth.error.tokenOutdated");
    }
  });

  it("a fresh token carrying a second change within the margin waits only for that change's event", async () => {
    await userAccess(id(9), { role: "VIEWER", asOf: T0 });
    const fresh = caller(id(9), Role.EDITOR, T0 + 3000);
    expect(await verdict(fresh)).toBe("auth.error.tokenOutdated");
    await userAccess(id(9), { role: "EDITOR", asOf: T0 + 2500 });
    expect(await verdict(fresh)).toBe("ok");
  });

  it("a user moved to another customer: a token of the old customer issued before is refused", async () => {
    await userAccess(id(5), { role: "EDITOR", customerId: 2, asOf: T0 });
    expect(await verdict(caller(id(5), Role.EDITOR, T0 - 2000, 1))).toBe("auth.error.tokenOutdated");
    expect(await verdict(caller(id(5), Role.EDITOR, T0 + 1000, 2))).toBe("ok");
  });

  it("a deleted user's tokens are refused with auth.error.userDeleted, whenever issued (the row stays as a tombstone)", async () => {
    await userAccess(id(6), { role: "EDITOR", asOf: T0 });
    await knex("team_membership").insert({ user_id: id(6), team_id: id(99), customer_id: 1 });
    await userAccess(id(6), { role: "EDITOR", asOf: T0 + 5000, deleted: true });
    expect(await verdict(caller(id(6), Role.EDITOR, T0 + 1000))).toBe("auth.error.userDeleted");
    expect(await verdict(caller(id(6), Role.EDITOR, T0 + 60_000))).toBe("auth.error.userDeleted");
    expect(await knex("team_membership").where({ user_id: id(6) })).toEqual([]);
    // A deletion from before events carried roles is a tombstone too.
    await userAccess(id(7), { deleted: true });
    expect(await verdict(caller(id(7), Role.VIEWER, T0))).toBe("auth.error.userDeleted");
  });

  it("'Deleting a customer cascades to every service ...; nothing of it remains': a user deletion applied after its customer's purge leaves no tombstone", async () => {
    await userAccess(id(8), { role: "EDITOR", customerId: 9, asOf: T0 });
    await knex.transaction(async (trx) => {
      await trx("team_user").where({ customer_id: 9 }).delete();
      await markTenantDeleted(trx, { id: 9, ownerSubresellerId: null, networkOwner: false, restricted: false });
    });
    await userAccess(id(8), { role: "EDITOR", customerId: 9, asOf: T0 + 1000, deleted: true });
    expect(await knex("team_user").where({ customer_id: 9 })).toEqual([]);
  });
});
