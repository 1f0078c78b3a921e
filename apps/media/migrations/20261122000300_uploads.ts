// Chunked upload sessions (document 1 "Chunked upload session": none -> open
// -> finished | cancelled). The parts themselves live in the blob store's
// multipart upload; a row is the session's state and the file fields given
// at init. Finished and cancelled sessions are deleted (their resources are
// cleaned up), so a row is `open`, or `completing` while complete runs.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("upload_session", (t) => {
    t.uuid("id").primary();
    t.bigInteger("customer_id").notNullable();
    t.text("state").notNullable().defaultTo("open");
    // The file's id is fixed at init: the blob key is derived from it.
    t.uuid("file_id").notNullable();
    t.text("storage_key").notNullable();
    t.text("store_upload_id").notNullable();
    t.text("name").notNullable();
    t.bigInteger("size").notNullable();
    t.integer("total_chunks").notNullable();
    t.bigInteger("max_chunk_size").notNullable();
    t.text("content_type").notNullable();
    t.jsonb("meta_data");
    t.uuid("parent_id");
    t.specificType("tags", "text[]").notNullable().defaultTo("{}");
    t.bigInteger("valid_from");
    t.bigInteger("valid_to");
    t.integer("width");
    t.integer("height");
    t.boolean("muted");
    t.text("crc_checksum");
    t.text("team_ids");
    t.text("creator_user_id");
    t.text("creator_email");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("expires_at", { useTz: true }).notNullable();
  });
  // Presigned part PUTs find their session by the store's upload id.
  await knex.raw("CREATE UNIQUE INDEX upload_session_store_upload_idx ON upload_session (store_upload_id)");
  await knex.raw("CREATE INDEX upload_session_customer_idx ON upload_session (customer_id, id)");
  // The sweep: expired sessions first.
  await knex.raw("CREATE INDEX upload_session_expires_idx ON upload_session (expires_at)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("upload_session");
}
