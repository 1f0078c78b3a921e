// The media library's files (document 1 "File") and the folder fields the
// first migration left out (sync settings, filtered folders, dates). Every
// list filter of `GET /api/v2/file` has an index here: direct folder, the
// recursive path (GIN), tags (GIN), name (btree + trigram), type, checksum.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  // In public (on every service's search path), so no service ends up owning the extension.
  await knex.raw("create extension if not exists pg_trgm with schema public");

  await knex.schema.alterTable("file_folder", (t) => {
    t.timestamp("update_date", { useTz: true });
    t.boolean("is_root_synced_folder").notNullable().defaultTo(false);
    // Which cloud source feeds the folder (alpha, beta, gamma) or null for regular/filtered folders.
    t.text("sync_source");
    t.text("alpha_credential_id");
    t.text("beta_tenant_id");
    t.text("gamma_credential_id");
    // The source's own ids and settings (syncMode, fileTypes, ignoredSubfolderIds, ...).
    t.jsonb("sync_settings");
    t.bigInteger("last_sync");
    t.bigInteger("last_change");
    t.bigInteger("last_error");
    t.bigInteger("next_refresh_time");
    t.integer("sync_error_counter").notNullable().defaultTo(0);
  });
  await knex.raw("CREATE INDEX file_folder_name_trgm_idx ON file_folder USING gin (name gin_trgm_ops)");
  await knex.raw("CREATE INDEX file_folder_customer_name_idx ON file_folder (customer_id, name, id)");
  // The validity sweep looks only at folders that asked for cleanup.
  await knex.raw("CREATE INDEX file_folder_cleanup_idx ON file_folder (id) WHERE cleanup_outdated_files");

  await knex.schema.createTable("file", (t) => {
    t.uuid("id").primary();
    t.bigInteger("customer_id").notNullable();
    t.text("name").notNullable();
    t.text("content_type").notNullable();
    // Kind derived from the content type: IMAGE, VIDEO, AUDIO, FONT, DOCUMENT, DATA, OTHER (filter `type`).
    t.text("type").notNullable();
    t.bigInteger("size").notNullable().defaultTo(0);
    t.integer("width");
    t.integer("height");
    t.text("crc_check_sum");
    // Folders are deleted by the service (which publishes media.file.deleted first); the
    // cascade only guards against orphans when a whole tenant goes.
    t.uuid("file_folder_id").notNullable().references("id").inTable("file_folder").onDelete("CASCADE");
    // The ancestor folder ids, root first, down to the file's own folder: `fileFolderPath:<id>`.
    t.specificType("path", "uuid[]").notNullable();
    t.specificType("tags", "text[]").notNullable().defaultTo("{}");
    t.jsonb("meta_data");
    // Unix ms (the documented unit), so filters and output need no conversion.
    t.bigInteger("valid_from");
    t.bigInteger("valid_to");
    t.boolean("muted").notNullable().defaultTo(false);
    t.text("file_mutability_type");
    t.text("preview_path");
    t.bigInteger("last_preview_upload_time");
    t.text("creator_user_id");
    t.text("creator_email");
    t.text("creator_name");
    // Blob store keys (uploads/storage own the bytes); null until the bytes exist.
    t.text("storage_key");
    t.text("thumbnail_key");
    t.boolean("is_alpha_file").notNullable().defaultTo(false);
    t.boolean("is_beta_file").notNullable().defaultTo(false);
    t.jsonb("alpha_drive_file_details");
    t.jsonb("beta_drive_file_details");
    t.timestamp("create_date", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("update_date", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // "orientation: landscape, portrait or square (computed)": a generated column, so it
  // renders by default and can be searched and sorted like any other field.
  await knex.raw(`ALTER TABLE file ADD COLUMN orientation text GENERATED ALWAYS AS (
    CASE WHEN width IS NULL OR height IS NULL OR width <= 0 OR height <= 0 THEN NULL
         WHEN width > height THEN 'landscape' WHEN width < height THEN 'portrait' ELSE 'square' END) STORED`);
  const indexes = [
    "CREATE INDEX file_customer_id_idx ON file (customer_id, id)",
    // `fileFolderId=<id>` sorted by name (the default sort) and the folder's file count.
    "CREATE INDEX file_folder_name_idx ON file (file_folder_id, name, id)",
    "CREATE INDEX file_customer_name_idx ON file (customer_id, name, id)",
    "CREATE INDEX file_customer_type_idx ON file (customer_id, type, id)",
    "CREATE INDEX file_customer_create_date_idx ON file (customer_id, create_date, id)",
    "CREATE INDEX file_customer_size_idx ON file (customer_id, size, id)",
    // duplicateDetails: same checksum, same tenant.
    "CREATE INDEX file_customer_crc_idx ON file (customer_id, crc_check_sum) WHERE crc_check_sum IS NOT NULL",
    "CREATE INDEX file_path_gin_idx ON file USING gin (path)",
    "CREATE INDEX file_tags_gin_idx ON file USING gin (tags)",
    "CREATE INDEX file_name_trgm_idx ON file USING gin (name gin_trgm_ops)",
    // The validity sweep: files whose window ended.
    "CREATE INDEX file_valid_to_idx ON file (file_folder_id, valid_to) WHERE valid_to IS NOT NULL",
  ];
  for (const sql of indexes) await knex.raw(sql);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("file");
  await knex.raw("DROP INDEX IF EXISTS file_folder_name_trgm_idx");
  await knex.raw("DROP INDEX IF EXISTS file_folder_customer_name_idx");
  await knex.raw("DROP INDEX IF EXISTS file_folder_cleanup_idx");
  await knex.schema.alterTable("file_folder", (t) => {
    for (const c of [
      "update_date", "is_root_synced_folder", "sync_source", "alpha_credential_id", "beta_tenant_id", "gamma_credential_id",
      "sync_settings", "last_sync", "last_change", "last_error", "next_refresh_time", "sync_error_counter",
    ]) t.dropColumn(c);
  });
}
