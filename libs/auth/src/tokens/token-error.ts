export type TokenErrorReason = "expired" | "invalid";

/** Raised by the verifier for any token that must not authenticate a call. */
export class TokenError extends Error {
  override readonly name = "TokenError";
  constructor(
    readonly reason: TokenErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
