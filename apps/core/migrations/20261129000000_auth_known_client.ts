// Client addresses a username logged in from (password-throttle.ts): within AUTH_KNOWN_CLIENT_DAYS
// of its last login there, an address is exempt from the username's account-wide lock, so guesses
// from elsewhere cannot hold the owner off. `subject` is the address's auth_attempt subject
// ("password:<HMAC of the username>@<HMAC of the address group>"). An operator's password reset
// deletes a username's rows by that prefix, as it does its auth_attempt rows: text_pattern_ops
// indexes serve `LIKE 'prefix%'` under any collation.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("auth_known_client", (t) => {
    t.text("subject").primary();
    t.timestamp("last_login_at", { useTz: true }).notNullable();
  });
  await knex.raw("CREATE INDEX auth_known_client_subject_prefix ON auth_known_client (subject text_pattern_ops)");
  await knex.raw("CREATE INDEX auth_attempt_subject_prefix ON auth_attempt (subject text_pattern_ops)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX auth_attempt_subject_prefix");
  await knex.schema.dropTable("auth_known_client");
}
