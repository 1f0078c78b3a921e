// Core's own schema: customers (tenants), users, OAuth refresh tokens and API
// clients, and the per-customer root folders core owns (device folders and
// content folders; their full resources come with the device/content issues).
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("customer", (t) => {
    t.bigIncrements("id").primary();
    t.text("name").notNullable();
    t.text("comment");
    t.text("country");
    t.text("location");
    t.text("type");
    t.text("vertical");
    t.timestamp("created_date", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("expiration_date", { useTz: true });
    t.boolean("restricted").notNullable().defaultTo(false);
    t.boolean("force_2fa").notNullable().defaultTo(false);
    t.boolean("needs_to_be_invoiced").notNullable().defaultTo(false);
    t.text("license_tier").notNullable().defaultTo("ENTERPRISE");
    t.jsonb("resource_limits");
    t.bigInteger("free_licenses").notNullable().defaultTo(0);
    t.bigInteger("browser_session_licenses").notNullable().defaultTo(0);
    t.bigInteger("device_session_limit").notNullable().defaultTo(0);
    t.bigInteger("storage_size");
    t.bigInteger("owner_subreseller_id").references("id").inTable("customer").onDelete("RESTRICT");
    // Set while the customer is a network owner (subreseller).
    t.timestamp("subreseller_since", { useTz: true });
    t.jsonb("hidden_ui_element_rules");
    t.jsonb("customer_metadata");
    t.boolean("user_full_access_if_not_in_team").notNullable().defaultTo(true);
    t.boolean("access_resources_without_team").notNullable().defaultTo(true);
    t.boolean("device_creation_in_root_for_team_users").notNullable().defaultTo(true);
    t.boolean("content_creation_in_root_for_team_users").notNullable().defaultTo(true);
    t.boolean("file_creation_in_root_for_team_users").notNullable().defaultTo(true);
    t.text("default_emergency_content_id");
    t.boolean("platform").notNullable().defaultTo(false);
  });
  // "name: required, globally unique"
  await knex.raw("CREATE UNIQUE INDEX customer_name_unique ON customer (name)");
  await knex.raw("CREATE INDEX customer_owner_idx ON customer (owner_subreseller_id) WHERE owner_subreseller_id IS NOT NULL");

  await knex.schema.createTable("app_user", (t) => {
    t.uuid("id").primary();
    t.text("email").notNullable();
    t.bigInteger("customer_id").notNullable().references("id").inTable("customer").onDelete("CASCADE");
    t.text("name");
    t.text("role").notNullable();
    t.text("password_hash");
    t.text("auth_provider").notNullable().defaultTo("LOCAL");
    t.text("editor_level");
    t.text("language");
    t.text("comment");
    t.text("address");
    t.boolean("read_only").notNullable().defaultTo(false);
    t.boolean("restricted").notNullable().defaultTo(false);
    t.boolean("use_2fa").notNullable().defaultTo(false);
    t.text("totp_secret");
    t.text("pending_totp_secret");
    t.boolean("force_to_set_2fa").notNullable().defaultTo(false);
    t.boolean("sso_login_enabled").notNullable().defaultTo(false);
    t.boolean("username_password_login_enabled").notNullable().defaultTo(true);
    t.boolean("magic_code_login_enabled").notNullable().defaultTo(false);
    t.boolean("oauth_password_flow_enabled").notNullable().defaultTo(true);
    t.boolean("trusted_admin").notNullable().defaultTo(false);
    t.timestamp("last_login", { useTz: true });
    t.timestamp("last_activity", { useTz: true });
    t.timestamp("created_date", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text("ui_profile_id");
  });
  // Email is the user's key; compare case-insensitively.
  await knex.raw("CREATE UNIQUE INDEX app_user_email_unique ON app_user (lower(email))");
  await knex.raw("CREATE INDEX app_user_customer_idx ON app_user (customer_id, email)");

  await knex.schema.createTable("user_profile_picture", (t) => {
    t.uuid("user_id").primary().references("id").inTable("app_user").onDelete("CASCADE");
    t.text("content_type").notNullable();
    t.binary("data").notNullable();
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable("refresh_token", (t) => {
    t.uuid("id").primary();
    t.text("token_hash").notNullable().unique();
    t.uuid("user_id").notNullable().references("id").inTable("app_user").onDelete("CASCADE");
    // Every token of one login shares a family: reuse of a rotated token revokes the family.
    t.uuid("family_id").notNullable();
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("rotated_at", { useTz: true });
    t.timestamp("revoked_at", { useTz: true });
  });
  await knex.raw("CREATE INDEX refresh_token_family_idx ON refresh_token (family_id)");
  await knex.raw("CREATE INDEX refresh_token_user_idx ON refresh_token (user_id)");

  await knex.schema.createTable("api_client", (t) => {
    t.text("client_id").primary();
    t.text("secret_hash").notNullable();
    t.bigInteger("customer_id").notNullable().references("id").inTable("customer").onDelete("CASCADE");
    t.text("name").notNullable();
    t.text("role").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // Roots core creates with each customer ("Creating a customer auto-creates a root
  // deviceGroup, root fileFolder and a content folder named Templates").
  await knex.schema.createTable("device_group", (t) => {
    t.uuid("id").primary();
    t.bigInteger("customer_id").notNullable().references("id").inTable("customer").onDelete("CASCADE");
    t.text("name");
    t.uuid("parent_id").references("id").inTable("device_group").onDelete("CASCADE");
    t.specificType("path", "uuid[]").notNullable();
    t.text("type").notNullable().defaultTo("NORMAL");
    t.timestamp("created_date", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("CREATE UNIQUE INDEX device_group_one_root ON device_group (customer_id) WHERE parent_id IS NULL");
  await knex.raw("CREATE INDEX device_group_parent_idx ON device_group (parent_id)");

  await knex.schema.createTable("content_group", (t) => {
    t.uuid("id").primary();
    t.bigInteger("customer_id").notNullable().references("id").inTable("customer").onDelete("CASCADE");
    t.text("name");
    t.uuid("parent_id").references("id").inTable("content_group").onDelete("CASCADE");
    t.specificType("path", "uuid[]").notNullable();
    t.boolean("is_template_group").notNullable().defaultTo(false);
    t.timestamp("created_date", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("CREATE INDEX content_group_parent_idx ON content_group (customer_id, parent_id)");
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["content_group", "device_group", "api_client", "refresh_token", "user_profile_picture", "app_user", "customer"]) {
    await knex.schema.dropTableIfExists(table);
  }
}
