/**
 * A user's columns with 2FA off (self, or an operator's reset): no secret, no pending one, and no
 * last accepted step (replays are told apart per secret: a new secret's first code must not be
 * refused because the old one's was used in the same 30-second step).
 */
export const TWO_FACTOR_OFF = { use_2fa: false, totp_secret: null, pending_totp_secret: null, totp_last_step: null } as const;
