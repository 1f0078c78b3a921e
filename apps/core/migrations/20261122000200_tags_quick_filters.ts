// Tags (registry + per-tenant index fed by `tags.*` events) and quick filters
// (with the usage index fed by `quickFilter.usage.changed`).
import type { Knex } from "knex";
import { createInboxTable } from "@signage/events";

export async function up(knex: Knex): Promise<void> {
  // Consumers of other services' events apply each exactly once (withInbox).
  await createInboxTable(knex);

  // Tags created explicitly (POST /api/tag) and their comments.
  await knex.schema.createTable("tag_definition", (t) => {
    t.bigInteger("customer_id").notNullable().references("id").inTable("customer").onDelete("CASCADE");
    t.text("tag_type").notNullable();
    t.text("tag").notNullable();
    t.text("comment");
    t.timestamp("created_date", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["customer_id", "tag_type", "tag"]);
  });
  // Suggest: case-insensitive prefix.
  await knex.raw("CREATE INDEX tag_definition_suggest_idx ON tag_definition (customer_id, tag_type, lower(tag) text_pattern_ops)");

  // One row per tagged resource: the newest version applied (order tolerance) and tombstones.
  await knex.schema.createTable("tag_resource", (t) => {
    t.text("tag_type").notNullable();
    t.text("resource_id").notNullable();
    t.bigInteger("customer_id").notNullable().references("id").inTable("customer").onDelete("CASCADE");
    t.bigInteger("version").notNullable();
    t.boolean("deleted").notNullable().defaultTo(false);
    t.primary(["tag_type", "resource_id"]);
  });
  await knex.raw("CREATE INDEX tag_resource_customer_idx ON tag_resource (customer_id)");

  // One row per (resource, tag) with the resource's teams: counts are one grouped query.
  await knex.schema.createTable("tag_assignment", (t) => {
    t.bigInteger("customer_id").notNullable().references("id").inTable("customer").onDelete("CASCADE");
    t.text("tag_type").notNullable();
    t.text("tag").notNullable();
    t.text("resource_id").notNullable();
    // The resource's teams (team ids are UUIDs), for restricted users' counts.
    t.specificType("team_ids", "uuid[]").notNullable().defaultTo("{}");
    t.primary(["customer_id", "tag_type", "tag", "resource_id"]);
  });
  await knex.raw("CREATE INDEX tag_assignment_resource_idx ON tag_assignment (tag_type, resource_id)");
  await knex.raw("CREATE INDEX tag_assignment_suggest_idx ON tag_assignment (customer_id, tag_type, lower(tag) text_pattern_ops)");

  await knex.schema.createTable("quick_filter", (t) => {
    t.uuid("id").primary();
    t.bigInteger("customer_id").notNullable().references("id").inTable("customer").onDelete("CASCADE");
    t.text("name").notNullable();
    t.text("filtered_entity_type").notNullable();
    t.jsonb("criteria").notNullable();
    t.boolean("listed").notNullable().defaultTo(false);
    t.boolean("custom").notNullable().defaultTo(false);
    t.timestamp("created_date", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // "name: required, unique per customer"; also serves the list's tenant + name sort.
  await knex.raw("CREATE UNIQUE INDEX quick_filter_name_unique ON quick_filter (customer_id, name)");
  await knex.raw("CREATE INDEX quick_filter_type_idx ON quick_filter (customer_id, filtered_entity_type)");

  // Who uses a quick filter (filtered folders, channels, sub-channels, data sources).
  await knex.schema.createTable("quick_filter_usage", (t) => {
    t.text("quick_filter_id").notNullable();
    t.text("used_by_type").notNullable();
    t.text("used_by_id").notNullable();
    t.bigInteger("customer_id").notNullable().references("id").inTable("customer").onDelete("CASCADE");
    t.boolean("used").notNullable();
    t.bigInteger("version").notNullable();
    t.primary(["quick_filter_id", "used_by_type", "used_by_id"]);
  });
  await knex.raw("CREATE INDEX quick_filter_usage_customer_idx ON quick_filter_usage (customer_id)");
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["quick_filter_usage", "quick_filter", "tag_assignment", "tag_resource", "tag_definition"]) {
    await knex.schema.dropTableIfExists(table);
  }
}
