// Password guesses (the password grant, and the old password of POST /api/user/password), counted
// with attempt-throttle.ts's counts twice: per username and client address
// (AUTH_MAX_PASSWORD_FAILURES), so someone guessing from one address locks that address out; and per
// username over all addresses (AUTH_MAX_ACCOUNT_PASSWORD_FAILURES, NIST SP 800-63B's 100), which
// bounds guessing spread over many addresses by locking the account. That lock would hold the
// owner off too (a hundred requests from ten addresses every AUTH_LOCKOUT_SECONDS keep it up), so
// the addresses the username logged in from within AUTH_KNOWN_CLIENT_DAYS are exempt from it: they
// are counted per address only. Someone new to the account needs its password to become known.
import { createHmac } from "node:crypto";
import type { Knex } from "knex";
import { AuthErrorKey } from "@signage/auth";
import type { Attempt, AttemptThrottle, ThrottlePolicy } from "./attempt-throttle.js";

export interface PasswordPolicies {
  /** Per username and client address (AUTH_MAX_PASSWORD_FAILURES). */
  address: ThrottlePolicy;
  /** Per username over all addresses (AUTH_MAX_ACCOUNT_PASSWORD_FAILURES). */
  account: ThrottlePolicy;
  /** How long a successful login exempts its address from the account's count and lock (AUTH_KNOWN_CLIENT_DAYS; 0: never). */
  knownClientDays: number;
}

/** One password guess, counted for its username and client address and (unless the address is known) for its username alone. */
export interface PasswordGuess {
  readonly address: Attempt;
  /** Number 0 when not counted: the address is a known one. */
  readonly account: Attempt;
}

export interface PasswordThrottle {
  readonly policies: PasswordPolicies;
  /**
   * Counts a guess at `username`'s password from `clientAddress` (clientAddressOf) before it is
   * checked: first for the address (guesses refused there do not count for the account), then,
   * unless the address is known, for the account (a refusal there takes the address's count back).
   * 429 while either is locked.
   */
  reserve(db: Knex | Knex.Transaction, username: string, clientAddress: string): Promise<PasswordGuess>;
  /** A wrong password: `lockedNow` names the lock it started, if any ("account" wins). */
  fail(db: Knex | Knex.Transaction, guess: PasswordGuess): Promise<{ lockedNow?: "address" | "account" }>;
  /** The right password: both counts start over, and the address becomes known. */
  succeed(db: Knex | Knex.Transaction, guess: PasswordGuess): Promise<void>;
  /** An operator reset the password: the username's counts, locks and known addresses go. */
  clear(db: Knex | Knex.Transaction, username: string): Promise<void>;
  /**
   * The subjects of a username, and of it from an address. The username is normalised as the user
   * lookup does it (PostgreSQL lower(): JavaScript's toLowerCase differs, e.g. on U+0130, and a
   * variant would open a new count) and keyed, as is the address (the tables tell neither which
   * emails are being guessed nor from where). Unknown usernames get them too: a lock must not tell
   * whether an account exists.
   */
  subjects(db: Knex | Knex.Transaction, username: string, clientAddress?: string): Promise<{ account: string; address: string }>;
}

export function passwordThrottle(policies: PasswordPolicies, throttles: { address: AttemptThrottle; account: AttemptThrottle }, subjectKey: Uint8Array): PasswordThrottle {
  const { address, account } = throttles;
  const keyed = (value: string) => createHmac("sha256", subjectKey).update(value).digest("hex");
  // An address's subject extends its account's: a reset finds them all by that prefix.
  const subjects = async (db: Knex | Knex.Transaction, username: string, clientAddress = "") => {
    const { rows } = await db.raw("SELECT lower(?) AS name", [username]);
    const accountSubject = `password:${keyed(rows[0].name as string)}`;
    return { account: accountSubject, address: `${accountSubject}@${keyed(clientAddress)}` };
  };
  const known = async (db: Knex | Knex.Transaction, addressSubject: string) =>
    policies.knownClientDays > 0 &&
    !!(await db("auth_known_client").where({ subject: addressSubject }).andWhereRaw("last_login_at > now() - make_interval(days => ?)", [policies.knownClientDays]).first(db.raw("1 AS known")));
  return {
    policies,
    subjects,
    async reserve(db, username, clientAddress) {
      const names = await subjects(db, username, clientAddress);
      const fromAddress = await address.reserve(db, names.address, AuthErrorKey.tooManyAttempts);
      if (await known(db, names.address)) return { address: fromAddress, account: { subject: names.account, number: 0 } };
      try {
        return { address: fromAddress, account: await account.reserve(db, names.account, AuthErrorKey.tooManyAttempts) };
      } catch (err) {
        await address.release(db, fromAddress);
        throw err;
      }
    },
    async fail(db, guess) {
      const [byAddress, byAccount] = [await address.fail(db, guess.address), await account.fail(db, guess.account)];
      return { lockedNow: byAccount.lockedNow ? "account" : byAddress.lockedNow ? "address" : undefined };
    },
    async succeed(db, guess) {
      await address.succeed(db, guess.address);
      await account.succeed(db, guess.account);
      if (policies.knownClientDays > 0) {
        await db.raw("INSERT INTO auth_known_client (subject, last_login_at) VALUES (?, now()) ON CONFLICT (subject) DO UPDATE SET last_login_at = now()", [guess.address.subject]);
      }
    },
    async clear(db, username) {
      const { account: prefix } = await subjects(db, username);
      // Subjects are hex and punctuation: no LIKE wildcards. text_pattern_ops indexes serve the prefix.
      await db("auth_attempt").where({ subject: prefix }).orWhere("subject", "like", `${prefix}@%`).delete();
      await db("auth_known_client").where("subject", "like", `${prefix}@%`).delete();
    },
  };
}

/** Deletes the known addresses whose last login is older than `knownClientDays`; returns how many. */
export async function pruneKnownClients(knex: Knex, knownClientDays: number): Promise<number> {
  const result = await knex.raw("DELETE FROM auth_known_client WHERE last_login_at <= now() - make_interval(days => ?)", [knownClientDays]);
  return result.rowCount ?? 0;
}
