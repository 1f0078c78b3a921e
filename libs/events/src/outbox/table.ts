import type { Knex } from "knex";

export const DEFAULT_OUTBOX_TABLE = "event_outbox";

/**
 * Events written in the same transaction as the change they describe; the
 * relay publishes them after commit. `seq` keeps publish order per service.
 * Idempotent, so start-up can ensure it for every service schema.
 */
export async function createOutboxTable(knex: Knex, table = DEFAULT_OUTBOX_TABLE): Promise<void> {
  if (await knex.schema.hasTable(table)) return;
  await knex.schema.createTable(table, (t) => {
    t.bigIncrements("seq").primary();
    t.text("event_id").notNullable().unique();
    t.text("type").notNullable();
    t.bigInteger("customer_id").nullable();
    t.jsonb("data").notNullable();
    t.text("traceparent").nullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function dropOutboxTable(knex: Knex, table = DEFAULT_OUTBOX_TABLE): Promise<void> {
  await knex.schema.dropTableIfExists(table);
}
