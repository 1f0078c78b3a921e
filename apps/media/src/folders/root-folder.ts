// "Root folder: auto-created per customer, has no name and parentId null, cannot be deleted."
import type { Knex } from "knex";
import type { IdGenerator } from "@signage/db";

/** Creates the customer's root file folder unless it exists (idempotent under concurrency). */
export async function ensureRootFolder(trx: Knex | Knex.Transaction, customerId: number, newId: IdGenerator): Promise<void> {
  const id = newId();
  await trx.raw(
    `INSERT INTO file_folder (id, customer_id, name, parent_id, path) VALUES (?, ?, NULL, NULL, ARRAY[?]::uuid[])
     ON CONFLICT (customer_id) WHERE parent_id IS NULL DO NOTHING`,
    [id, customerId, id],
  );
}
