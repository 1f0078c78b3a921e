// Failed authentication attempts per subject (a username's password, a user's TOTP codes), for
// brute-force throttling (oauth/attempt-throttle.ts). One row per subject while it has recent
// failures or a lock; an hourly prune deletes rows whose window and lock have both passed.
// `subject` is "password:<HMAC of the username as PostgreSQL lower() gives it>" (unknown usernames
// are counted too; neither emails nor attacker-chosen text are stored), the same followed by
// "@<HMAC of the client address group>" (counted per address since 20261129000000), or "totp:<user id>".
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("auth_attempt", (t) => {
    t.text("subject").primary();
    t.integer("failures").notNullable();
    t.timestamp("window_started_at", { useTz: true }).notNullable();
    t.timestamp("locked_until", { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("auth_attempt");
}
