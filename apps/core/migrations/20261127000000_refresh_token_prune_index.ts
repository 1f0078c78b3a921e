// The refresh token prune (src/oauth/refresh-token-prune.ts) looks for logins it may delete through
// their newest token, the one token of a family not yet used (rotated_at IS NULL): a family is
// deletable only once that token expired, or was revoked, more than the retention period ago, so
// least(expires_at, revoked_at) before the cutoff names the candidates. Partial over those heads,
// the index holds one entry per login instead of one per refresh, and the prune never reads the
// rotated history of live logins (refresh_token_family_idx then judges and deletes each candidate).
//
// Cost on the write path: rotated_at and revoked_at are now indexed columns, so marking a token
// used or revoked is no longer a HOT update (each index gets an entry for the new row version).
//
// Families left without an unused token (versions before d8e1f32 could mark a token used and
// then refuse the refresh without issuing its successor) never appear here; should such old
// rows matter, one statement removes those past the rule:
//   DELETE FROM refresh_token WHERE family_id IN (SELECT family_id FROM refresh_token GROUP BY family_id
//     HAVING bool_and(rotated_at IS NOT NULL) AND max(expires_at) < now() - interval '7 days');
//
// Built CONCURRENTLY, so logins and refreshes keep writing refresh_token while a big table is
// indexed (a plain CREATE INDEX holds a SHARE lock, blocking every insert and update for the whole
// build). That cannot run inside a transaction block: this migration runs outside one
// (`config.transaction = false`; knex reads it from the module libs/db's migration source hands
// it, and runs the other pending migrations each in its own transaction instead of one for all).
import type { Knex } from "knex";

export const config = { transaction: false };

const INDEX = "refresh_token_prune_idx";

export async function up(knex: Knex): Promise<void> {
  // A pod killed while building (a start-up probe giving up on a big table) leaves its build
  // running in PostgreSQL, the index INVALID until it completes: wait for that build instead of
  // dropping it (dropping would restart the work, and a restart loop would never finish it).
  const building = `SELECT 1 FROM pg_stat_progress_create_index
                     WHERE relid = 'refresh_token'::regclass AND datid = (SELECT oid FROM pg_database WHERE datname = current_database())`;
  while ((await knex.raw(building)).rows.length > 0) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  // A build that failed (cancelled, or its session gone) leaves an INVALID index under this
  // name, which IF NOT EXISTS would keep: drop it and build again.
  const invalid = await knex.raw(
    `SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relname = ? AND n.nspname = current_schema() AND NOT i.indisvalid`,
    [INDEX],
  );
  if (invalid.rows.length > 0) await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${INDEX}`);
  await knex.raw(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${INDEX} ON refresh_token ((least(expires_at, revoked_at)), family_id) WHERE rotated_at IS NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${INDEX}`);
}
