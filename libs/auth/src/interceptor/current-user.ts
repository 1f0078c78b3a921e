// An access token tells who the user was when it was issued. Where the users
// live (core), each call checks the token against the user as they are now, so
// deleting a user, changing their role or customer, or turning 2FA on takes
// effect on the next call, not when the token expires.
import type { ContextValues } from "@connectrpc/connect";
import type { Caller } from "../caller.js";

export interface CurrentUserCheck {
  /**
   * For a user caller: throws (Unauthenticated) when the token no longer matches its user,
   * else returns what the token cannot know for sure. `values` are the call's context
   * values (the check may leave the user row there for the handler).
   */
  check(caller: Caller, values: ContextValues): Promise<{ twoFactor: boolean }>;
}
