// Brute-force throttling of the secrets a caller can guess: a username's password (the password
// grant, and the old password of POST /api/user/password) and a user's TOTP codes (login, x-totp).
// RFC 4226 7.3, which RFC 6238 applies to TOTP: "the authentication server needs to detect and stop
// brute force attacks ... The validation server manages individual counters per HOTP device in
// order to take note of any failed attempt." NIST SP 800-63B 5.2.2: "the verifier SHALL limit
// consecutive failed authentication attempts on a single subscriber account to no more than 100".
//
// Per subject: `maxFailures` failures within `lockoutSeconds` lock it for `lockoutSeconds` from the
// failure that reached the limit. While locked, an attempt is refused (429, Retry-After) before the
// secret is checked, so a right guess answers like a wrong one and costs no argon2 verification.
// A success clears the count. A failure is one atomic upsert: concurrent attempts, on any replica,
// all count. The lock is per account, not per client address, so anyone knowing a username can
// hold its password login off for `lockoutSeconds`; logins already made keep refreshing.
import { createHash } from "node:crypto";
import { Code } from "@connectrpc/connect";
import type { Knex } from "knex";
import { serviceError } from "@signage/auth";
import { wholeNumberSetting } from "../whole-number-setting.js";

export interface ThrottlePolicy {
  /** Failures within the window that lock the subject; 0 turns throttling off. */
  maxFailures: number;
  /** How long failures are counted together, and how long a lock lasts. */
  lockoutSeconds: number;
}

/** What `check` saw: whether there are failures a success has to clear. */
export interface AttemptState {
  counted: boolean;
}

export interface AttemptThrottle {
  readonly policy: ThrottlePolicy;
  /** Refuses with 429 `lockedKey` (details.retryAfterSeconds) while `subject` is locked. */
  check(db: Knex | Knex.Transaction, subject: string, lockedKey: string): Promise<AttemptState>;
  /** Counts a failed attempt; the one reaching the limit starts the lock and answers `lockedNow`. */
  fail(db: Knex | Knex.Transaction, subject: string): Promise<{ lockedNow: boolean }>;
  /** After a successful attempt: counting starts over. */
  succeed(db: Knex | Knex.Transaction, subject: string, state: AttemptState): Promise<void>;
}

export const DEFAULT_MAX_PASSWORD_FAILURES = 10;
export const DEFAULT_MAX_TOTP_FAILURES = 5;
export const DEFAULT_LOCKOUT_SECONDS = 900;

/** `AUTH_MAX_PASSWORD_FAILURES` (0..100, default 10), `AUTH_MAX_TOTP_FAILURES` (0..100, default 5), `AUTH_LOCKOUT_SECONDS` (1..86400, default 900). */
export function attemptPoliciesFromEnv(env: Record<string, string | undefined>): { password: ThrottlePolicy; totp: ThrottlePolicy } {
  const lockoutSeconds = wholeNumberSetting(env, "AUTH_LOCKOUT_SECONDS", { fallback: DEFAULT_LOCKOUT_SECONDS, min: 1, max: 86_400, unit: "seconds" });
  const failures = (name: string, fallback: number) => wholeNumberSetting(env, name, { fallback, min: 0, max: 100, unit: "failed attempts" });
  return {
    password: { maxFailures: failures("AUTH_MAX_PASSWORD_FAILURES", DEFAULT_MAX_PASSWORD_FAILURES), lockoutSeconds },
    totp: { maxFailures: failures("AUTH_MAX_TOTP_FAILURES", DEFAULT_MAX_TOTP_FAILURES), lockoutSeconds },
  };
}

/** A username's password guesses, whether the account exists or not (a lock must not tell). */
export function passwordSubject(username: string): string {
  return `password:${createHash("sha256").update(username.trim().toLowerCase()).digest("hex")}`;
}

export function totpSubject(userId: string): string {
  return `totp:${userId}`;
}

// The window restarts with the first failure after it ended; a lock in force is kept (two
// concurrent failures past the limit do not extend it).
const FAIL_SQL = `
INSERT INTO auth_attempt AS a (subject, failures, window_started_at, locked_until)
VALUES (:subject, 1, now(), CASE WHEN 1 >= :max THEN now() + make_interval(secs => :lockout) END)
ON CONFLICT (subject) DO UPDATE SET
  failures = CASE WHEN a.window_started_at <= now() - make_interval(secs => :lockout) THEN 1 ELSE a.failures + 1 END,
  window_started_at = CASE WHEN a.window_started_at <= now() - make_interval(secs => :lockout) THEN now() ELSE a.window_started_at END,
  locked_until = CASE
    WHEN a.locked_until > now() THEN a.locked_until
    WHEN (CASE WHEN a.window_started_at <= now() - make_interval(secs => :lockout) THEN 1 ELSE a.failures + 1 END) >= :max
      THEN now() + make_interval(secs => :lockout)
  END
RETURNING failures`;

export function attemptThrottle(policy: ThrottlePolicy): AttemptThrottle {
  const off = policy.maxFailures === 0;
  return {
    policy,
    async check(db, subject, lockedKey) {
      if (off) return { counted: false };
      const row: { seconds_left: number | null } | undefined = await db("auth_attempt")
        .where({ subject })
        .first(db.raw("ceil(extract(epoch from locked_until - now()))::int AS seconds_left"));
      if (row?.seconds_left && row.seconds_left > 0) {
        throw serviceError(Code.ResourceExhausted, lockedKey, `Too many failed attempts: try again in ${row.seconds_left} s`, { retryAfterSeconds: row.seconds_left });
      }
      return { counted: row !== undefined };
    },
    async fail(db, subject) {
      if (off) return { lockedNow: false };
      const { rows } = await db.raw(FAIL_SQL, { subject, max: policy.maxFailures, lockout: policy.lockoutSeconds });
      // Exactly the limit: concurrent failures past it do not report the same lock again.
      return { lockedNow: rows[0]?.failures === policy.maxFailures };
    },
    async succeed(db, subject, state) {
      // A lock taken meanwhile by a concurrent failure stays.
      if (off || !state.counted) return;
      await db("auth_attempt").where({ subject }).andWhere((q) => q.whereNull("locked_until").orWhere("locked_until", "<=", db.fn.now())).delete();
    },
  };
}

export const ATTEMPT_PRUNE_BATCH = 10_000;

/** Deletes the rows whose window and lock have both passed, in batches; returns how many. */
export async function pruneAuthAttempts(knex: Knex, lockoutSeconds: number, batchSize = ATTEMPT_PRUNE_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await knex.raw(
      `DELETE FROM auth_attempt WHERE subject IN (
         SELECT subject FROM auth_attempt
          WHERE window_started_at <= now() - make_interval(secs => :lockout) AND (locked_until IS NULL OR locked_until <= now())
          LIMIT :batch)`,
      { lockout: lockoutSeconds, batch: batchSize },
    );
    total += result.rowCount ?? 0;
    if ((result.rowCount ?? 0) < batchSize) return total;
  }
}
