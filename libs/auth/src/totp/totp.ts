import { Secret, TOTP } from "otpauth";
import type { Caller } from "../caller.js";

/**
 * Checks a caller's `x-totp` code. Implemented where the user's secret lives (core); that side
 * should also refuse a code already used in the same time step (replay).
 */
export interface TotpChecker {
  verify(caller: Caller, code: string): Promise<boolean>;
}

const TOTP_PARAMS = { algorithm: "SHA1", digits: 6, period: 30 } as const;

/** A new random base32 secret (160 bit, the RFC 4226 recommendation). */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an authenticator app scans. */
export function totpUri(secretBase32: string, email: string, issuer = "Signage"): string {
  return new TOTP({ ...TOTP_PARAMS, issuer, label: email, secret: Secret.fromBase32(secretBase32) }).toString();
}

/** True when `code` matches within ±`window` time steps. */
export function verifyTotpCode(
  secretBase32: string,
  code: string,
  options: { window?: number; timestamp?: number } = {},
): boolean {
  return matchTotpStep(secretBase32, code, options) !== undefined;
}

/**
 * The time step (RFC 6238 counter T) whose code `code` is, within ±`window` steps, or undefined.
 * A verifier stores the last step it accepted per user and accepts only later ones: RFC 6238
 * 5.2 "The verifier MUST NOT accept the second attempt of the OTP after the successful
 * validation has been issued for the first OTP".
 */
export function matchTotpStep(
  secretBase32: string,
  code: string,
  { window = 1, timestamp = Date.now() }: { window?: number; timestamp?: number } = {},
): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const totp = new TOTP({ ...TOTP_PARAMS, secret: Secret.fromBase32(secretBase32) });
  const delta = totp.validate({ token: code, window, timestamp });
  return delta === null ? undefined : totp.counter({ timestamp }) + delta;
}

/** The current code for a secret (tests, enrolment confirmation). */
export function currentTotpCode(secretBase32: string, timestamp = Date.now()): string {
  return new TOTP({ ...TOTP_PARAMS, secret: Secret.fromBase32(secretBase32) }).generate({ timestamp });
}
