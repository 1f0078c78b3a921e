// Private apps (document 1 "Private app (customer-owned)"): one row per app,
// its current package described by the columns set on upload. Package bytes
// live in the blob store under `package_key` and `app_root_path`.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("create extension if not exists pg_trgm with schema public");
  await knex.schema.createTable("custom_app", (t) => {
    t.bigIncrements("id").primary();
    t.bigInteger("customer_id").notNullable();
    t.text("name").notNullable();
    t.text("description");
    t.text("type").notNullable().defaultTo("WIDGET");
    t.text("widget_category").notNullable().defaultTo("CUSTOM_APPS");
    // "created: disabled, private, repository updates off, no package"
    t.text("ownership_type").notNullable().defaultTo("CUSTOMER");
    t.boolean("enabled").notNullable().defaultTo(false);
    t.boolean("repository_updates").notNullable().defaultTo(false);
    // Package identity and version (null until the first upload).
    t.text("app_id");
    t.text("version");
    t.bigInteger("size_bytes");
    // Bumped on every upload; the package's blob keys carry it.
    t.integer("revision").notNullable().defaultTo(0);
    t.text("package_key");
    t.text("app_root_path");
    t.text("entry_point");
    t.text("icon_path");
    t.jsonb("config");
    t.jsonb("resource_list");
    t.timestamp("created_date", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("last_updated", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // "Package identity already used in the customer's effective catalog" -> 409.
  await knex.raw("CREATE UNIQUE INDEX custom_app_identity_unique ON custom_app (customer_id, app_id) WHERE app_id IS NOT NULL");
  // List filters and sorts within a tenant.
  await knex.raw("CREATE INDEX custom_app_customer_id_idx ON custom_app (customer_id, id)");
  await knex.raw("CREATE INDEX custom_app_name_idx ON custom_app (customer_id, name, id)");
  await knex.raw("CREATE INDEX custom_app_name_trgm_idx ON custom_app USING gin (name gin_trgm_ops)");
  for (const column of ["enabled", "last_updated", "type", "widget_category"]) {
    await knex.raw(`CREATE INDEX custom_app_${column}_idx ON custom_app (customer_id, ${column}, id)`);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("custom_app");
}
