// One-time use of TOTP codes. RFC 6238 5.2: "The verifier MUST NOT accept the second attempt
// of the OTP after the successful validation has been issued for the first OTP, which ensures
// one-time only use of an OTP." The last accepted time step is kept per user
// (app_user.totp_last_step); a code is accepted only for a later step, and the check-and-record
// is one conditional UPDATE, so two concurrent uses of one code cannot both pass.
import type { Knex } from "knex";
import { AuthErrorKey, matchTotpStep, type TotpChecker } from "@signage/auth";
import { totpSubject, type AttemptThrottle } from "../oauth/attempt-throttle.js";
import type { CoreLogger } from "../deps.js";

/**
 * Accepts `code` for the user when it matches `secret` (within the window) for a time step
 * after the last one accepted, and records that step. `secretColumn` names where `secret` must
 * still be stored (the active secret, or the pending one while 2FA is being confirmed).
 */
export async function useTotpCode(
  knex: Knex | Knex.Transaction,
  userId: string,
  secret: string | null | undefined,
  code: string,
  secretColumn: "totp_secret" | "pending_totp_secret" = "totp_secret",
): Promise<boolean> {
  if (!secret) return false;
  const step = matchTotpStep(secret, code);
  if (step === undefined) return false;
  const updated = await knex("app_user")
    .where({ id: userId, [secretColumn]: secret })
    .andWhere((q) => q.whereNull("totp_last_step").orWhere("totp_last_step", "<", step))
    .update({ totp_last_step: step });
  return updated === 1;
}

/**
 * A TOTP code the caller presents for itself, counted by `throttle` (a locked user is refused with
 * 429 auth.error.tooManyAttempts before the code is looked at): true when accepted.
 */
export async function useThrottledTotpCode(knex: Knex, throttle: AttemptThrottle, logger: Pick<CoreLogger, "warn">, userId: string, secret: string | null | undefined, code: string): Promise<boolean> {
  const attempt = await throttle.reserve(knex, totpSubject(userId), AuthErrorKey.tooManyAttempts);
  const accepted = await useTotpCode(knex, userId, secret, code);
  if (accepted) {
    await throttle.succeed(knex, attempt);
  } else if ((await throttle.fail(knex, attempt)).lockedNow) {
    // The password was right (login) or the token is the user's (x-totp): someone holds one factor.
    logger.warn({ userId, failures: throttle.policy.maxFailures }, "TOTP locked: too many wrong codes");
  }
  return accepted;
}

/** Sensitive methods (`x-totp`): the caller's current TOTP against the secret only core holds, once, throttled. */
export function dbTotpChecker(knex: Knex, throttle: AttemptThrottle, logger: Pick<CoreLogger, "warn">): TotpChecker {
  return {
    async verify(caller, code) {
      const row = await knex("app_user").where({ id: caller.userId }).select("totp_secret").first();
      return useThrottledTotpCode(knex, throttle, logger, caller.userId, row?.totp_secret, code);
    },
  };
}
