// Core holds the users, so core checks every user token against its user as
// they are now (CurrentUserCheck): a deleted user's token stops at once, one
// issued before a role or customer change must be refreshed (the refresh grant
// issues the current claims), and 2FA turned on guards sensitive calls at once.
// The user's forceToSet2FA is taken from the row too, so setting 2FA up (or an
// OWNER clearing the flag, or the customer turning force2FA off or on) counts
// in core at once; other services go by the token's claim until it is refreshed.
// The row read here (batched with the turn's other reads) is left in the call's
// context, so GET /api/v2/user/me reads the user once.
import { Code, createContextKey } from "@connectrpc/connect";
import type { Knex } from "knex";
import { AuthErrorKey, roleFromName, serviceError, type CurrentUserCheck } from "@signage/auth";
import { findUserById } from "./user-repository.js";
import type { UserRow } from "./user-row.js";
import { mustSetUp2fa } from "./user-mapper.js";

/** The calling user's row as the check read it (undefined for API clients and on other services). */
export const currentUserRowKey = createContextKey<UserRow | undefined>(undefined, { description: "the calling user's row" });

export function currentUserCheck(knex: Knex): CurrentUserCheck {
  return {
    async check(caller, values) {
      const row = await findUserById(knex, caller.userId);
      if (!row) throw serviceError(Code.Unauthenticated, AuthErrorKey.userDeleted, "The user of this token no longer exists", { email: caller.subject });
      if (roleFromName(row.role) !== caller.role || Number(row.customer_id) !== caller.customerId) {
        throw serviceError(Code.Unauthenticated, AuthErrorKey.tokenOutdated, "The user's role or customer changed after this token was issued: refresh it or log in again", {
          email: caller.subject,
        });
      }
      values.set(currentUserRowKey, row);
      return { twoFactor: row.use_2fa, twoFactorSetupRequired: mustSetUp2fa(row) };
    },
  };
}
