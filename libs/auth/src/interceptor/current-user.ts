// An access token tells who the user was when it was issued. Where the users
// live (core), each call checks the token against the user as they are now, so
// deleting a user, changing their role or customer, or turning 2FA on takes
// effect on the next call, not when the token expires. The same goes for the duty
// to set up 2FA first: set up (or the duty lifted) it stops holding calls back at
// once, imposed it holds them back at once.
import type { ContextValues } from "@connectrpc/connect";
import type { Caller } from "../caller.js";

export interface CurrentUserCheck {
  /**
   * For a user caller: throws (Unauthenticated) when the token no longer matches its user,
   * else returns what the token cannot know for sure: whether 2FA is on, and whether the
   * user must set it up first (forceToSet2FA). `values` are the call's context values
   * (the check may leave the user row there for the handler).
   */
  check(caller: Caller, values: ContextValues): Promise<{ twoFactor: boolean; twoFactorSetupRequired: boolean }>;
}
