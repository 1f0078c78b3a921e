import type { Knex } from "knex";
import { applyScope, type Scope } from "@signage/auth";
import { batchedReads, preparedQuery, type BatchedReads } from "@signage/db";
import type { UserRow } from "./user-row.js";
import { teamAssignmentsSql } from "../teams/assignments-json.js";
import { isUuid } from "@signage/runtime";

/** Users with the joined customer facts; the tenant scope is applied on the user's customer. */
export function userView(knex: Knex | Knex.Transaction, scope: Scope): Knex.QueryBuilder {
  const qb = knex("app_user as u")
    .join("customer as c", "c.id", "u.customer_id")
    .select("u.*")
    .select({
      customer_name: "c.name",
      customer_expiration_date: "c.expiration_date",
      customer_force_2fa: "c.force_2fa",
      customer_restricted: "c.restricted",
    })
    .select(knex.raw("c.subreseller_since IS NOT NULL as customer_network_owner"))
    .select(knex.raw("EXISTS (SELECT 1 FROM user_profile_picture p WHERE p.user_id = u.id) as has_profile_picture"))
    .select(knex.raw("(SELECT up.name FROM ui_profile up WHERE up.id = u.ui_profile_id) as ui_profile_name"))
    .select(knex.raw(`${teamAssignmentsSql("u.id")} as team_assignments`));
  applyScope(qb, scope, "u.customer_id");
  return qb;
}

export async function findUserByEmail(knex: Knex | Knex.Transaction, scope: Scope, email: string): Promise<UserRow | undefined> {
  return userView(knex, scope).whereRaw("lower(u.email) = lower(?)", [email]).first();
}

// Every authenticated call to core reads its user by id (current-user-check.ts): compiled once, a
// prepared statement on each connection, and the reads of one event-loop turn coalesced into one
// statement. A lone read takes the single-id statement: with `= any($1)` PostgreSQL never settles
// on the generic plan and plans every execution (~0.2 ms of server CPU, four times the read itself);
// `= $1` gets its generic plan after five.
const userById = preparedQuery<[id: string], UserRow>("core_user_by_id", 1, (knex, id) => userView(knex, { kind: "global" }).whereRaw("u.id = ?::uuid", [id]));
const usersByIds = preparedQuery<[ids: string[]], UserRow>("core_users_by_ids", 1, (knex, ids) => userView(knex, { kind: "global" }).whereRaw("u.id = any(?::uuid[])", [ids]));
const readsByKnex = new WeakMap<Knex, BatchedReads<string, UserRow>>();

function userReads(knex: Knex): BatchedReads<string, UserRow> {
  let reads = readsByKnex.get(knex);
  if (!reads) {
    const readMany = (ids: string[]) => (ids.length === 1 ? userById.rows(knex, ids[0]) : usersByIds.rows(knex, ids));
    readsByKnex.set(knex, (reads = batchedReads({ name: "users by id", readMany, keyOf: (row) => row.id })));
  }
  return reads;
}

export async function findUserById(knex: Knex | Knex.Transaction, id: string): Promise<UserRow | undefined> {
  if (knex.isTransaction) return userView(knex, { kind: "global" }).where("u.id", id).first();
  // A malformed id names no user (and must not fail the other reads of its batch).
  if (!isUuid(id)) return undefined;
  return userReads(knex as Knex).load(id.toLowerCase());
}
