// Bytes of uploaded files per customer, as the database keeps their total (storage_usage,
// migration 20261126000000): one row per customer, never a sum over the files. For many
// customers in the caller's scope (core's GetStorageUsage), or one (quota, statistics).
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
  // One array parameter, not one per id: a direct caller's list may pass PostgreSQL's 65535 bind parameters.
  const query = knex("storage_usage").whereRaw("storage_usage.customer_id = any(?::bigint[])", [inScope]).select("storage_usage.customer_id", { bytes: "storage_usage.files_bytes" });
  const rows = (await applyScope(query, scope, "storage_usage.customer_id")) as { customer_id: string | number; bytes: string | number | null }[];
  for (const row of rows) usage.set(Number(row.customer_id), BigInt(row.bytes ?? 0));
  return usage;
}

/** Bytes of the customer's files (0 before its first file). */
export async function usedBytes(db: Knex | Knex.Transaction, customerId: number): Promise<number> {
  const row: { files_bytes: string | number } | undefined = await db("storage_usage").where({ customer_id: customerId }).first("files_bytes");
  return Number(row?.files_bytes ?? 0);
}
