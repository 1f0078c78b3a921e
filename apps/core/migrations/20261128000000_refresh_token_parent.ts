// Refresh token reuse grace (oauth/refresh-tokens.ts): a rotated token presented again shortly
// after its first use, while its successor is still unused, gets a new successor instead of
// revoking the login (the client never received the first one). Telling "its successor" apart
// needs the link from a token to the one it replaced: parent_id. Tokens issued before this
// migration (and by a replica still running the previous version) have none, so a retry of
// their parent finds no linked successor and stays a replay, as before.
//
// Rotation keeps at most one live (neither rotated nor revoked) token per login (family): the
// one the client is to present next. The partial unique index makes the database hold that, so
// no interleaving of retries can leave two chains of one login that each continue; it also
// serves the look-up of that live token by family.
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("refresh_token", (t) => {
    t.uuid("parent_id");
  });
  await knex.raw("CREATE UNIQUE INDEX refresh_token_family_live_unique ON refresh_token (family_id) WHERE rotated_at IS NULL AND revoked_at IS NULL");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DROP INDEX IF EXISTS refresh_token_family_live_unique");
  await knex.schema.alterTable("refresh_token", (t) => {
    t.dropColumn("parent_id");
  });
}
