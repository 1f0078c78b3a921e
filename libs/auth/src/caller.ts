import type { Role } from "@signage/contracts/signage/common/v1/role_pb";

export type CallerKind = "user" | "client";

/** The verified principal of a call, built from an access token. */
export interface Caller {
  /** `sub`: user email, or the API client id. */
  subject: string;
  /** `uid`: the user's id (for API clients, the client's id). */
  userId: string;
  /** `cid`: the caller's own customer (tenant). */
  customerId: number;
  role: Role;
  /** `no`: the caller's customer is a network owner. */
  networkOwner: boolean;
  /** `tfa`: the user has 2FA on, so sensitive methods need `x-totp`. */
  twoFactor: boolean;
  /**
   * `f2fa`: the user must set up 2FA first (no 2FA yet, and forceToSet2FA: its own flag or its
   * customer's force2FA), so it may only call methods marked
   * `allowed_before_2fa_setup`. Absent (tokens issued before the claim existed) counts as false.
   */
  twoFactorSetupRequired?: boolean;
  kind: CallerKind;
  /**
   * `iat`, in seconds: when the token was issued. Services that replicate the users
   * (replica current-user checks) tell a token older than a role change from a replica
   * that has not seen a newer one yet.
   */
  issuedAt?: number;
  /** The raw bearer token, for forwarding on internal calls. */
  token: string;
}
