// Bytes of uploaded files per customer: one query for every id asked,
// restricted to the caller's scope on the customer id.
import type { Knex } from "knex";
import { applyScope, type Scope } from "@signage/auth";

/** Customer id -> bytes; ids in scope without files answer 0, ids outside the scope are absent. */
export async function filesBytesByCustomer(knex: Knex, scope: Scope, customerIds: readonly number[]): Promise<Map<number, bigint>> {
  const ids = [...new Set(customerIds)];
  const usage = new Map<number, bigint>();
  if (ids.length === 0) return usage;
  const inScope = scope.kind === "global" ? ids : ids.filter((id) => scope.customerIds.includes(id));
  for (const id of inScope) usage.set(id, 0n);
  if (inScope.length === 0) return usage;
  // The totals the database keeps (storage_usage, migration 20261126000000): a row per customer, no sum over files.
  const query = knex("storage_usage").whereIn("storage_usage.customer_id", inScope).select("storage_usage.customer_id", { bytes: "storage_usage.files_bytes" });
  const rows = (await applyScope(query, scope, "storage_usage.customer_id")) as { customer_id: string | number; bytes: string | number | null }[];
  for (const row of rows) usage.set(Number(row.customer_id), BigInt(row.bytes ?? 0));
  return usage;
}
