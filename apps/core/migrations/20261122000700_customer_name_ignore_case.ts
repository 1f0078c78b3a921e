// Customer "name | string | required, globally unique": unique regardless of letter case, so
// "Acme" and "acme" cannot be two tenants nobody can tell apart in a customer list. Enforced by
// the database (concurrent creates or renames cannot both win); the service maps a violation
// of either index to 409 customer.error.nameTaken (customer-repository.ts isCustomerNameTaken).
// customer_name_unique (exact name) stays: it still serves exact-name lookups and name order.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  // Customers whose names already differ only in case would make the index fail with a bare
  // "could not create unique index": name them, and leave renaming to an operator (a migration
  // must not rename tenants on its own). The table is held against writes first: a replica of
  // the previous version still serving could otherwise add "acme" between this check and the index.
  await knex.raw("LOCK TABLE customer IN SHARE MODE");
  const { rows } = await knex.raw<{ rows: Array<{ ids: string[]; names: string[] }> }>(
    "SELECT array_agg(id::text ORDER BY id) AS ids, array_agg(name ORDER BY id) AS names FROM customer GROUP BY lower(name) HAVING count(*) > 1 ORDER BY min(id) LIMIT 20",
  );
  if (rows.length > 0) {
    const groups = rows.map((r) => r.ids.map((id, i) => `${id} '${r.names[i]}'`).join(" / ")).join("; ");
    throw new Error(`customer names must be unique regardless of case; rename all but one of each group, then restart: ${groups}`);
  }
  await knex.raw(`CREATE UNIQUE INDEX customer_name_lower_unique ON customer (lower(name))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX IF EXISTS customer_name_lower_unique`);
}
