// Media's own schema: file folders (root per customer), the local replica of
// the tenant directory (fed by customer.* events) and the event inbox.
import type { Knex } from "knex";
import { createInboxTable } from "@signage/events";
import { createTenantReplicaTable } from "@signage/runtime";

export async function up(knex: Knex): Promise<void> {
  await createTenantReplicaTable(knex);

  await knex.schema.createTable("file_folder", (t) => {
    t.uuid("id").primary();
    t.bigInteger("customer_id").notNullable();
    t.text("name");
    t.uuid("parent_id").references("id").inTable("file_folder").onDelete("CASCADE");
    // Ancestor ids from the root down to this folder itself: `fileFolderPath:<id>` is `path @> {id}`.
    t.specificType("path", "uuid[]").notNullable();
    t.integer("file_folder_type").notNullable().defaultTo(1);
    t.text("sync_type").notNullable().defaultTo("NOT_SYNCED");
    t.boolean("cleanup_outdated_files").notNullable().defaultTo(false);
    t.text("quick_filter_id");
    t.boolean("auto_sync");
    t.timestamp("created_date", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // "Root folder: auto-created per customer ... cannot be deleted": exactly one per customer.
  await knex.raw("CREATE UNIQUE INDEX file_folder_one_root ON file_folder (customer_id) WHERE parent_id IS NULL");
  await knex.raw("CREATE INDEX file_folder_parent_idx ON file_folder (customer_id, parent_id, id)");
  await knex.raw("CREATE INDEX file_folder_path_idx ON file_folder USING gin (path)");

  await createInboxTable(knex);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("file_folder");
  await knex.schema.dropTableIfExists("tenant");
}
