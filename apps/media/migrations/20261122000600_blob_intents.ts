// Write-ahead records of blobs that no committed row owns yet (or any more):
// inserted and committed before an upload writes a blob, deleted in the
// transaction that commits the owning row. A crash in between leaves the
// record, and the blob-intent sweeper removes the blob once the record is
// older than any legitimate upload (storage/blob-intent-sweeper.ts).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("blob_intent", (t) => {
    t.text("key").primary();
    t.bigInteger("customer_id").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // The sweep: oldest intents first.
  await knex.raw("CREATE INDEX blob_intent_created_idx ON blob_intent (created_at)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("blob_intent");
}
