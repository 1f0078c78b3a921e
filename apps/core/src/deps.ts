import type { Knex } from "knex";
import type { EventBus, Outbox } from "@signage/events";
import type { IdGenerator } from "@signage/db";
import type { TenantAccessChanges, TokenIssuer } from "@signage/auth";
import type { Peers } from "@signage/runtime";
import type { AuthAttempts } from "./oauth/attempt-throttle.js";
import type { PasswordHasher } from "./users/passwords.js";

export interface CoreLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Everything core's handlers need, passed in by the composition root. */
export interface CoreDeps {
  knex: Knex;
  bus: EventBus;
  /** Events written in the transaction of the change they announce. */
  outbox: Outbox;
  /** Told after each commit that changes a customer's access facts (the per-call check is cached). */
  tenantAccess: TenantAccessChanges;
  newId: IdGenerator;
  issuer: TokenIssuer;
  logger: CoreLogger;
  refreshTokenTtlSeconds: number;
  /** `REFRESH_REUSE_GRACE_SECONDS`: how long after its first use a rotated refresh token may be presented again (lost response) while its successor is unused; 0: never. */
  refreshReuseGraceSeconds: number;
  /** Key deriving a refresh token's successor from it (refresh-tokens.ts successorOf). */
  refreshSuccessorKey: Uint8Array;
  /** Brute-force throttling of password and TOTP guesses (oauth/attempt-throttle.ts). */
  attempts: AuthAttempts;
  /** Argon2 on request paths, at most so many at once, logins apart from authenticated callers (users/hash-limiter.ts). */
  passwords: PasswordHasher;
  /** Other services of the composition (media answers the customers' file storage usage). */
  peers?: Peers;
}
