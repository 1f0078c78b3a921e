// SQL for customers. Reads always go through `customersInScope` so the tenant
// scope is applied in one place (libs/auth applyScope).
import type { Knex } from "knex";
import { applyScope, type Scope } from "@signage/auth";
import type { CustomerComputed, CustomerRow } from "./customer-row.js";

export type CustomerView = CustomerRow & CustomerComputed;

/** Customer rows with the computed owner name and owned-customer count. */
export function customerView(knex: Knex | Knex.Transaction): Knex.QueryBuilder {
  return knex("customer as c")
    .select("c.*")
    .select(knex.raw("o.name as owner_subreseller_name"))
    .select(knex.raw("(SELECT count(*)::int FROM customer m WHERE m.owner_subreseller_id = c.id) as owned_customer_count"))
    .leftJoin("customer as o", "o.id", "c.owner_subreseller_id");
}

export function customersInScope(knex: Knex | Knex.Transaction, scope: Scope): Knex.QueryBuilder {
  const qb = customerView(knex);
  applyScope(qb, scope, "c.id");
  return qb;
}

export async function findCustomer(knex: Knex | Knex.Transaction, scope: Scope, id: number): Promise<CustomerView | undefined> {
  return customersInScope(knex, scope).where("c.id", id).first();
}

export async function ownedCustomerCount(knex: Knex | Knex.Transaction, ownerId: number): Promise<number> {
  const row = await knex("customer").where({ owner_subreseller_id: ownerId }).count<{ count: string }[]>({ count: "*" }).first();
  return Number(row?.count ?? 0);
}

export async function insertCustomer(trx: Knex.Transaction, columns: Record<string, unknown>): Promise<number> {
  const [row] = await trx("customer").insert(columns).returning("id");
  return Number(row.id);
}

export async function updateCustomerColumns(trx: Knex.Transaction, id: number, columns: Record<string, unknown>): Promise<void> {
  if (Object.keys(columns).length > 0) await trx("customer").where({ id }).update(columns);
}

export const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === "23505";

/**
 * Customer "name | string | required, globally unique", regardless of letter case: the exact
 * index and the one on lower(name) (migration 20261122000700), so that concurrent creates or
 * renames cannot both win. Only these two mean "name taken".
 */
const NAME_INDEXES: ReadonlySet<string> = new Set(["customer_name_unique", "customer_name_lower_unique"]);
export const isCustomerNameTaken = (e: unknown) => isUniqueViolation(e) && NAME_INDEXES.has((e as { constraint?: string }).constraint ?? "");

export const isForeignKeyViolation = (e: unknown) => (e as { code?: string })?.code === "23503";
