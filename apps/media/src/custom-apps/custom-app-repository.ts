// SQL for private apps. Every read of an existing app goes through `appsInScope`,
// so the caller's tenant scope is applied in one place (libs/auth applyScope).
import type { Knex } from "knex";
import { applyScope, type Scope } from "@signage/auth";
import type { CustomAppRow } from "./custom-app-row.js";

export function appsInScope(knex: Knex | Knex.Transaction, scope: Scope): Knex.QueryBuilder {
  return applyScope(knex("custom_app"), scope, "customer_id");
}

export async function findApp(knex: Knex | Knex.Transaction, scope: Scope, id: number): Promise<CustomAppRow | undefined> {
  return appsInScope(knex, scope).where({ id }).first();
}

/** The row locked for the rest of the transaction (package replace). */
export async function lockApp(trx: Knex.Transaction, scope: Scope, id: number): Promise<CustomAppRow | undefined> {
  return appsInScope(trx, scope).where({ id }).forUpdate().first();
}

export async function insertApp(knex: Knex | Knex.Transaction, columns: Record<string, unknown>): Promise<CustomAppRow> {
  const [row] = await knex("custom_app").insert(columns).returning("*");
  return row;
}

export async function updateApp(knex: Knex | Knex.Transaction, id: number, columns: Record<string, unknown>): Promise<CustomAppRow> {
  const [row] = await knex("custom_app").where({ id }).update({ ...columns, last_updated: knex.fn.now() }).returning("*");
  return row;
}

/** Another app of the customer already carries this package identity. */
export async function identityUsedElsewhere(knex: Knex | Knex.Transaction, customerId: number, appId: string, exceptId: number): Promise<boolean> {
  const row = await knex("custom_app").where({ customer_id: customerId, app_id: appId }).whereNot({ id: exceptId }).first("id");
  return row !== undefined;
}

export const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === "23505";
