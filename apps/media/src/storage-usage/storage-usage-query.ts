// Bytes of uploaded files per customer: one grouped query for every id asked,
// restricted to the caller's scope on `file.customer_id`.
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
  const query = knex("file").whereIn("file.customer_id", inScope).groupBy("file.customer_id").select("file.customer_id").sum({ bytes: "file.size" });
  const rows = (await applyScope(query, scope, "file.customer_id")) as { customer_id: string | number; bytes: string | number | null }[];
  for (const row of rows) usage.set(Number(row.customer_id), BigInt(row.bytes ?? 0));
  return usage;
}
