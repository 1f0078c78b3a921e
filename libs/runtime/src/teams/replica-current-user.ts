// Core checks each user token against the user as they are now; the other services hold a replica
// of the users' facts (team_user, from core's user.access.changed events) and check against it, so
// a deleted user's token, or one issued before a role or customer change, is refused once the event
// has arrived, not when the token expires (up to its 900 s lifetime later). The replica may lag:
// a token issued well after the facts it holds (STALE_READ_MARGIN_MS) was issued after a change it
// has not seen yet, and passes. The 2FA state is the token's (core alone holds the secret and the flags).
import { Code } from "@connectrpc/connect";
import type { Knex } from "knex";
import { AuthErrorKey, roleFromName, serviceError, type AccessFactsCache, type Caller, type CurrentUserCheck } from "@signage/auth";

/** The user as the replica last heard of them; undefined when it has not yet. */
export interface ReplicatedUser {
  deleted: boolean;
  /** Absent when only events from before roles were carried reached the replica. */
  role?: string;
  customerId: number;
  /** When core read these facts, in ms. */
  asOf?: number;
}

export type ReplicatedUserSource = (userId: string, customerId: number) => Promise<ReplicatedUser | undefined>;

export function replicaUsers(knex: Knex): ReplicatedUserSource {
  return async (userId) => {
    const row: { deleted: boolean; role: string | null; customer_id: string | number; as_of: Date | null } | undefined = await knex("team_user")
      .where({ user_id: userId })
      .first("deleted", "role", "customer_id", "as_of");
    if (!row) return undefined;
    return { deleted: row.deleted, role: row.role ?? undefined, customerId: Number(row.customer_id), asOf: row.as_of?.getTime() };
  };
}

/** `source` with its answers kept in `cache` (evicted per tenant as the replica applies events). */
export function cachedReplicaUsers(source: ReplicatedUserSource, cache: AccessFactsCache<ReplicatedUser | undefined>): ReplicatedUserSource {
  return (userId, customerId) => cache.get(customerId, `user:${userId}`, () => source(userId, customerId));
}

export function replicaCurrentUserCheck(users: ReplicatedUserSource): CurrentUserCheck {
  return {
    async check(caller) {
      const user = await users(caller.userId, caller.customerId);
      if (user?.deleted) throw serviceError(Code.Unauthenticated, AuthErrorKey.userDeleted, "The user of this token no longer exists", { email: caller.subject });
      if (user && isOutdated(caller, user)) {
        throw serviceError(Code.Unauthenticated, AuthErrorKey.tokenOutdated, "The user's role or customer changed after this token was issued: refresh it or log in again", {
          email: caller.subject,
        });
      }
      return { twoFactor: caller.twoFactor, twoFactorSetupRequired: caller.twoFactorSetupRequired ?? false };
    },
  };
}

/**
 * How much later than `asOf` a token must have been issued for its other facts to be taken as
 * newer than the replica's. `iat` is not when core read the user, nor `asOf` when the change
 * became visible: a login reads the user, then checks the password (argon2), the TOTP code and
 * writes last_login before it signs; the change's trigger reads clock_timestamp() before its
 * commit; and `iat` is core's clock, `asOf` PostgreSQL's. A login that read the user just
 * before a demotion committed signs the old role with an `iat` after `asOf`: without the
 * margin media would take it for newer than the demotion, for the token's whole lifetime.
 * What the margin costs: while the replica lags behind a second change made within this time
 * of the one it holds, a token carrying that change waits for its event.
 */
export const STALE_READ_MARGIN_MS = 30_000;

/** The token disagrees with facts that were true after it was issued (`iat` has whole seconds). */
function isOutdated(caller: Caller, user: ReplicatedUser): boolean {
  if (user.role === undefined || user.asOf === undefined || caller.issuedAt === undefined) return false;
  const differs = roleFromName(user.role) !== caller.role || user.customerId !== caller.customerId;
  return differs && caller.issuedAt * 1000 < user.asOf + STALE_READ_MARGIN_MS;
}
