// TOTP codes are one-time: RFC 6238 5.2 "The verifier MUST NOT accept the second attempt of
// the OTP after the successful validation has been issued for the first OTP". The last time
// step (RFC 6238 counter T) accepted for a user is kept; only a later step is accepted next
// (users/totp-use.ts), at login, on sensitive calls (`x-totp`) and when 2FA is confirmed.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("app_user", (t) => {
    t.bigInteger("totp_last_step");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("app_user", (t) => {
    t.dropColumn("totp_last_step");
  });
}
