// UI profiles (document 3 "UI profile"), the user's profile reference as a real
// foreign key, the stored branding guideline read by `/api/customer/select`, and
// the index behind the customer filter `subreseller=!NULL`.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("ui_profile", (t) => {
    t.bigIncrements("id").primary();
    // Deleting a customer removes its profiles in the same statement.
    t.bigInteger("customer_id").notNullable().references("id").inTable("customer").onDelete("CASCADE");
    t.text("name").notNullable();
    t.text("comment");
    t.jsonb("hidden_ui_element_rules").notNullable();
    t.timestamp("created_date", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("CREATE INDEX ui_profile_customer_idx ON ui_profile (customer_id, name)");

  // No API set the text column before, so the conversion has nothing to carry over.
  await knex.raw("UPDATE app_user SET ui_profile_id = NULL WHERE ui_profile_id IS NOT NULL AND ui_profile_id !~ '^[0-9]+$'");
  await knex.raw("ALTER TABLE app_user ALTER COLUMN ui_profile_id TYPE bigint USING ui_profile_id::bigint");
  await knex.raw("ALTER TABLE app_user ADD CONSTRAINT app_user_ui_profile_fk FOREIGN KEY (ui_profile_id) REFERENCES ui_profile (id) ON DELETE SET NULL");
  await knex.raw("CREATE INDEX app_user_ui_profile_idx ON app_user (ui_profile_id) WHERE ui_profile_id IS NOT NULL");

  await knex.schema.alterTable("customer", (t) => {
    t.jsonb("branding_guideline");
  });
  await knex.raw("CREATE INDEX customer_subreseller_idx ON customer (subreseller_since) WHERE subreseller_since IS NOT NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS customer_subreseller_idx");
  await knex.schema.alterTable("customer", (t) => {
    t.dropColumn("branding_guideline");
  });
  await knex.raw("ALTER TABLE app_user DROP CONSTRAINT IF EXISTS app_user_ui_profile_fk");
  await knex.raw("DROP INDEX IF EXISTS app_user_ui_profile_idx");
  await knex.raw("ALTER TABLE app_user ALTER COLUMN ui_profile_id TYPE text USING ui_profile_id::text");
  await knex.schema.dropTableIfExists("ui_profile");
}
