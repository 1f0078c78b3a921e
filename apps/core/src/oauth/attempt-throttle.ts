// Brute-force throttling of the secrets a caller can guess: a username's password (the password
// grant, and the old password of POST /api/user/password) and a user's TOTP codes (login, x-totp).
// RFC 4226 7.3, which RFC 6238 applies to TOTP: "the authentication server needs to detect and stop
// brute force attacks ... The validation server manages individual counters per HOTP device in
// order to take note of any failed attempt." NIST SP 800-63B 5.2.2: "the verifier SHALL limit
// consecutive failed authentication attempts on a single subscriber account to no more than 100".
//
// Per subject: `maxFailures` failures within `lockoutSeconds` lock it for `lockoutSeconds` from the
// failure that reached the limit. Every attempt is counted before its secret is checked (one
// atomic upsert, numbering the attempts of a window), so a burst of parallel guesses, on any
// replica, gets at most `maxFailures` of them checked; the rest, and every attempt while locked,
// are refused (429, Retry-After) unchecked: a right guess answers like a wrong one and costs no
// argon2 verification. A success clears the count; an operator's password or 2FA reset clears it
// with the lock.
//
// Passwords are counted per username and client address and per username (password-throttle.ts).
import { hkdfSync } from "node:crypto";
import { Code } from "@connectrpc/connect";
import type { Knex } from "knex";
import { serviceError } from "@signage/auth";
import { passwordThrottle, type PasswordPolicies, type PasswordThrottle } from "./password-throttle.js";
import { wholeNumberSetting } from "../whole-number-setting.js";

export interface ThrottlePolicy {
  /** Failures within the window that lock the subject; 0 turns throttling off. */
  maxFailures: number;
  /** How long failures are counted together, and how long a lock lasts. */
  lockoutSeconds: number;
}

/** One counted attempt: its number within the subject's window (0: throttling is off). */
export interface Attempt {
  readonly subject: string;
  readonly number: number;
}

export interface AttemptThrottle {
  readonly policy: ThrottlePolicy;
  /** Counts an attempt before its secret is checked; refuses it (429 `lockedKey`, details.retryAfterSeconds) while locked or past the limit. */
  reserve(db: Knex | Knex.Transaction, subject: string, lockedKey: string): Promise<Attempt>;
  /** The secret was wrong: the attempt stays counted, and the one at the limit starts the lock (`lockedNow`). */
  fail(db: Knex | Knex.Transaction, attempt: Attempt): Promise<{ lockedNow: boolean }>;
  /** The secret was right: counting starts over (a lock a concurrent attempt started stays). */
  succeed(db: Knex | Knex.Transaction, attempt: Attempt): Promise<void>;
  /** An operator reset the secret: the count and any lock go. */
  clear(db: Knex | Knex.Transaction, subject: string): Promise<void>;
  /** The attempt was refused before its secret was checked (another count locked): it does not count. */
  release(db: Knex | Knex.Transaction, attempt: Attempt): Promise<void>;
}

/** Both throttles. */
export interface AuthAttempts {
  password: PasswordThrottle;
  totp: AttemptThrottle;
}

const DEFAULT_MAX_PASSWORD_FAILURES = 10;
const DEFAULT_MAX_ACCOUNT_PASSWORD_FAILURES = 100;
const DEFAULT_MAX_TOTP_FAILURES = 5;
const DEFAULT_LOCKOUT_SECONDS = 900;
const DEFAULT_KNOWN_CLIENT_DAYS = 30;

/**
 * `AUTH_MAX_PASSWORD_FAILURES` (0..100, default 10), `AUTH_MAX_ACCOUNT_PASSWORD_FAILURES` (0..1000,
 * default 100), `AUTH_KNOWN_CLIENT_DAYS` (0..365, default 30), `AUTH_MAX_TOTP_FAILURES` (0..100,
 * default 5), `AUTH_LOCKOUT_SECONDS` (1..86400, default 900).
 */
export function attemptPoliciesFromEnv(env: Record<string, string | undefined>): { password: PasswordPolicies; totp: ThrottlePolicy } {
  const knownClientDays = wholeNumberSetting(env, "AUTH_KNOWN_CLIENT_DAYS", { fallback: DEFAULT_KNOWN_CLIENT_DAYS, min: 0, max: 365, unit: "days" });
  const lockoutSeconds = wholeNumberSetting(env, "AUTH_LOCKOUT_SECONDS", { fallback: DEFAULT_LOCKOUT_SECONDS, min: 1, max: 86_400, unit: "seconds" });
  const failures = (name: string, fallback: number, max = 100) => ({ maxFailures: wholeNumberSetting(env, name, { fallback, min: 0, max, unit: "failed attempts" }), lockoutSeconds });
  return {
    password: {
      address: failures("AUTH_MAX_PASSWORD_FAILURES", DEFAULT_MAX_PASSWORD_FAILURES),
      account: failures("AUTH_MAX_ACCOUNT_PASSWORD_FAILURES", DEFAULT_MAX_ACCOUNT_PASSWORD_FAILURES, 1000),
      knownClientDays,
    },
    totp: failures("AUTH_MAX_TOTP_FAILURES", DEFAULT_MAX_TOTP_FAILURES),
  };
}

/** The key of password subjects, derived from core's signing key (as the refresh successor key is). */
export function attemptSubjectKeyFrom(privateKeyPem: string): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", privateKeyPem, "signage auth attempt subject", "v1", 32));
}

export function authAttempts(policies: { password: PasswordPolicies; totp: ThrottlePolicy }, subjectKey: Uint8Array): AuthAttempts {
  const password = passwordThrottle(policies.password, { address: attemptThrottle(policies.password.address), account: attemptThrottle(policies.password.account) }, subjectKey);
  return { password, totp: attemptThrottle(policies.totp) };
}

export function totpSubject(userId: string): string {
  return `totp:${userId}`;
}

// Numbers the attempt within the subject's window: the window restarts with the first attempt
// after it ended. While a lock is in force nothing changes and no row is returned.
const RESERVE_SQL = `
INSERT INTO auth_attempt AS a (subject, failures, window_started_at)
VALUES (:subject, 1, now())
ON CONFLICT (subject) DO UPDATE SET
  failures = CASE WHEN a.window_started_at <= now() - make_interval(secs => :lockout) THEN 1 ELSE a.failures + 1 END,
  window_started_at = CASE WHEN a.window_started_at <= now() - make_interval(secs => :lockout) THEN now() ELSE a.window_started_at END,
  locked_until = NULL
WHERE a.locked_until IS NULL OR a.locked_until <= now()
RETURNING failures`;

// Starts the lock unless one is in force (a concurrent attempt may have started it).
const LOCK_SQL = `
UPDATE auth_attempt SET locked_until = now() + make_interval(secs => :lockout)
 WHERE subject = :subject AND (locked_until IS NULL OR locked_until <= now())`;

// Takes a refused attempt's count back (unless a lock started meanwhile: it stands).
const RELEASE_SQL = `
UPDATE auth_attempt SET failures = failures - 1
 WHERE subject = :subject AND failures > 0 AND (locked_until IS NULL OR locked_until <= now())`;

export function attemptThrottle(policy: ThrottlePolicy): AttemptThrottle {
  const off = policy.maxFailures === 0;
  const lock = async (db: Knex | Knex.Transaction, subject: string) => {
    const result = await db.raw(LOCK_SQL, { subject, lockout: policy.lockoutSeconds });
    return (result.rowCount ?? 0) === 1;
  };
  const locked = async (db: Knex | Knex.Transaction, subject: string, lockedKey: string) => {
    const row: { seconds_left: number | null } | undefined = await db("auth_attempt")
      .where({ subject })
      .first(db.raw("ceil(extract(epoch from locked_until - now()))::int AS seconds_left"));
    // A lock that ended in between still refuses this attempt: come back in a second.
    const seconds = Math.max(1, row?.seconds_left ?? 1);
    return serviceError(Code.ResourceExhausted, lockedKey, `Too many failed attempts: try again in ${seconds} s`, { retryAfterSeconds: seconds });
  };
  return {
    policy,
    async reserve(db, subject, lockedKey) {
      if (off) return { subject, number: 0 };
      const { rows } = await db.raw(RESERVE_SQL, { subject, lockout: policy.lockoutSeconds });
      const number = rows[0]?.failures as number | undefined;
      if (number === undefined) throw await locked(db, subject, lockedKey);
      if (number > policy.maxFailures) {
        // Past the limit while the attempts before it are still being checked: locked from now.
        await lock(db, subject);
        throw await locked(db, subject, lockedKey);
      }
      return { subject, number };
    },
    async fail(db, attempt) {
      if (off || attempt.number !== policy.maxFailures) return { lockedNow: false };
      return { lockedNow: await lock(db, attempt.subject) };
    },
    async succeed(db, attempt) {
      if (off) return;
      await db("auth_attempt").where({ subject: attempt.subject }).andWhere((q) => q.whereNull("locked_until").orWhere("locked_until", "<=", db.fn.now())).delete();
    },
    async clear(db, subject) {
      await db("auth_attempt").where({ subject }).delete();
    },
    async release(db, attempt) {
      if (off || attempt.number === 0) return;
      await db.raw(RELEASE_SQL, { subject: attempt.subject });
    },
  };
}

const ATTEMPT_PRUNE_BATCH = 10_000;

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
