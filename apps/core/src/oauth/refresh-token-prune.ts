// Housekeeping of refresh_token: every refresh adds a row (refresh-tokens.ts rotates), and nothing
// else deletes one, so a scheduled prune deletes whole logins (families) that can no longer be
// used, keeping what replay detection needs. A family goes only when none of its tokens can still
// be presented to any effect, and only after `REFRESH_TOKEN_RETENTION_DAYS` more (default 7):
//   - its newest expiry (max(expires_at): each rotation issues a fresh one) is more than the
//     retention period in the past, or
//   - all of its tokens are revoked (logout, replay, password change) and the latest revocation is
//     more than the retention period in the past.
// A live login keeps all its rows, the long-expired rotated ones too: presenting one of those is
// a replay that revokes the login.
//
// Finding them: every family has one unused token, its newest (a rotation marks the presented
// token used and inserts its successor in one transaction), and a deletable family's newest token
// has expired or was revoked before the cutoff. A partial index over those heads, keyed by
// least(expires_at, revoked_at) (migration 20261127000000), names the candidates without reading
// the rotated history of live logins; each candidate family is then judged on all of its rows (by
// its family index) and deleted as a whole. Candidates are walked in index order with a cursor, so
// one that turns out to be kept is not read again in the same round. A family without an unused
// token (left by versions before d8e1f32, which could rotate a token and then refuse the refresh)
// is never a candidate: see the migration.
//
// Several replicas: each batch takes a transaction-scoped advisory lock first; a replica that does
// not get it skips the rest of its round (another one is pruning). The lock is per batch, so
// between batches another replica's round may take over and continue (harmless: both delete only
// dead families). Bounded: at most `batchSize` families per statement (not rows: a family with a
// long history is deleted whole), looping until a short batch; between batches the round can stop.
import type { Knex } from "knex";
import { wholeNumberSetting } from "../whole-number-setting.js";

export const DEFAULT_REFRESH_TOKEN_RETENTION_DAYS = 7;
const MAX_REFRESH_TOKEN_RETENTION_DAYS = 36_500;
const DAY_MS = 24 * 3600 * 1000;

/** How often the prune runs. */
export const REFRESH_TOKEN_PRUNE_INTERVAL_MS = 3600 * 1000;
/** The first round after start: soon, so a core restarted more often than hourly prunes too. */
export const REFRESH_TOKEN_PRUNE_FIRST_ROUND_MS = 5 * 60 * 1000;
export const REFRESH_TOKEN_PRUNE_BATCH = 1000;

/** `REFRESH_TOKEN_RETENTION_DAYS`: whole days from 1 to 36500, default 7. */
export function refreshTokenRetentionDaysFromEnv(env: Record<string, string | undefined>): number {
  return wholeNumberSetting(env, "REFRESH_TOKEN_RETENTION_DAYS", { fallback: DEFAULT_REFRESH_TOKEN_RETENTION_DAYS, min: 1, max: MAX_REFRESH_TOKEN_RETENTION_DAYS, unit: "days" });
}

export interface RefreshTokenPruneOptions {
  retentionDays: number;
  /** The prune's clock (tests); default Date.now(). */
  now?: number;
  /** Families judged per statement. */
  batchSize?: number;
  /** Aborted: the round ends after the batch in flight (shutdown). */
  signal?: AbortSignal;
}

export interface RefreshTokenPruneResult {
  /** Families (logins) deleted. */
  logins: number;
  /** Their rows. */
  tokens: number;
}

const LOCK_SQL = "SELECT pg_try_advisory_xact_lock(hashtext('core'), hashtext('refresh-token-prune')) AS ok";

// One batch: the next candidates after the cursor (the index's order), the dead families among
// them judged on all their rows, and those deleted. `= ANY(ARRAY(...))` keeps the delete on the
// family index (a join with the CTE may be planned as a scan of the whole table).
const BATCH_SQL = `
WITH candidate AS MATERIALIZED (
  SELECT family_id, least(expires_at, revoked_at) AS due
    FROM refresh_token
   WHERE rotated_at IS NULL
     AND least(expires_at, revoked_at) < :cutoff
     AND (least(expires_at, revoked_at), family_id) > (CAST(:afterDue AS timestamptz), CAST(:afterFamily AS uuid))
   ORDER BY least(expires_at, revoked_at), family_id
   LIMIT :batch
), dead AS MATERIALIZED (
  SELECT c.family_id
    FROM (SELECT DISTINCT family_id FROM candidate) c
   CROSS JOIN LATERAL (
     SELECT max(t.expires_at) AS last_expiry,
            max(t.revoked_at) AS last_revocation,
            bool_and(t.revoked_at IS NOT NULL) AS all_revoked
       FROM refresh_token t
      WHERE t.family_id = c.family_id) f
   WHERE f.last_expiry < :cutoff
      OR (f.all_revoked AND f.last_revocation < :cutoff)
), deleted AS (
  DELETE FROM refresh_token
   WHERE family_id = ANY (ARRAY(SELECT family_id FROM dead))
  RETURNING family_id
)
SELECT (SELECT count(*) FROM candidate)::int AS candidates,
       CAST(last.due AS text) AS last_due,
       last.family_id AS last_family,
       (SELECT count(DISTINCT family_id) FROM deleted)::int AS logins,
       (SELECT count(*) FROM deleted)::int AS tokens
  FROM (SELECT 1) AS one
  LEFT JOIN LATERAL (SELECT due, family_id FROM candidate ORDER BY due DESC, family_id DESC LIMIT 1) AS last ON true`;

interface Cursor {
  due: string;
  family: string;
}

const START: Cursor = { due: "-infinity", family: "00000000-0000-0000-0000-000000000000" };

/**
 * One prune round: deletes the families past the retention period (the rule above) and says how
 * many, or null when another replica held the lock from the start (nothing done here).
 */
export async function pruneRefreshTokens(knex: Knex, options: RefreshTokenPruneOptions): Promise<RefreshTokenPruneResult | null> {
  const batch = options.batchSize ?? REFRESH_TOKEN_PRUNE_BATCH;
  if (!Number.isInteger(batch) || batch < 1) throw new Error(`refresh token prune: batch size must be a positive integer, got ${batch}`);
  const cutoff = new Date((options.now ?? Date.now()) - options.retentionDays * DAY_MS);
  const total: RefreshTokenPruneResult = { logins: 0, tokens: 0 };
  let cursor = START;
  let locked = false;
  for (;;) {
    if (options.signal?.aborted) break;
    const result = await knex.transaction(async (trx) => {
      const lock = await trx.raw(LOCK_SQL);
      if (!lock.rows[0]?.ok) return null;
      const { rows } = await trx.raw(BATCH_SQL, { cutoff, afterDue: cursor.due, afterFamily: cursor.family, batch });
      return rows[0] as { candidates: number; last_due: string | null; last_family: string | null; logins: number; tokens: number };
    });
    // Another replica is pruning: its round does the rest.
    if (result === null) return locked ? total : null;
    locked = true;
    total.logins += result.logins;
    total.tokens += result.tokens;
    if (result.candidates < batch || result.last_due === null || result.last_family === null) break;
    cursor = { due: result.last_due, family: result.last_family };
  }
  return total;
}

export interface RefreshTokenPruneLogger {
  info(obj: object, msg?: string): void;
}

/**
 * The scheduled round (module.ts): prunes, and logs one info line when it deleted something;
 * nothing when idle or when another replica pruned.
 */
export function refreshTokenPruneRound(knex: Knex, options: Omit<RefreshTokenPruneOptions, "now">, logger: RefreshTokenPruneLogger): () => Promise<void> {
  return async () => {
    const result = await pruneRefreshTokens(knex, options);
    if (result && result.tokens > 0) {
      logger.info(
        { job: "refresh token prune", logins: result.logins, tokens: result.tokens, retentionDays: options.retentionDays },
        `refresh token prune: deleted ${result.logins} login(s), ${result.tokens} token(s)`,
      );
    }
  };
}
