// Scheduled removals: a committed change that disowns blobs (a file, folder,
// package or customer deleted) records their intents in its own transaction
// with `due_at` set, and deletes the bytes after commit. The sweeper takes a
// due intent at once, without the grace period that protects a live upload's
// write-ahead intent (due_at NULL), so whatever a crash or a failed delete
// between the commit and the blob delete left is finished on the next round.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("blob_intent", (t) => {
    t.timestamp("due_at", { useTz: true }).nullable();
  });
  // The sweep's first query: due intents, oldest first (write-ahead ones stay out of this index).
  await knex.raw("CREATE INDEX blob_intent_due_idx ON blob_intent (due_at) WHERE due_at IS NOT NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS blob_intent_due_idx");
  await knex.schema.alterTable("blob_intent", (t) => {
    t.dropColumn("due_at");
  });
}
