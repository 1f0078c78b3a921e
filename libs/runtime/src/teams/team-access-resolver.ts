// The calling user's TeamAccess for the current call, resolved once per call.
import type { HandlerContext } from "@connectrpc/connect";
import { isUuid } from "./team-assignment-store.js";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { FULL_TEAM_ACCESS, requireAuth, resolveTeamAccess, type Caller, type TeamAccess } from "@signage/auth";
import type { TeamFactsSource } from "./team-facts.js";

export type TeamAccessResolver = (ctx: HandlerContext) => Promise<TeamAccess>;

/** The access of one caller (no per-call cache; prefer the resolver inside handlers). */
export function teamAccessForCaller(source: TeamFactsSource, caller: Caller): Promise<TeamAccess> {
  // ADMIN and API clients are never team-restricted: no lookup.
  if (caller.kind !== "user" || caller.role === Role.ADMIN || !isUuid(caller.userId)) return Promise.resolve(FULL_TEAM_ACCESS);
  return source(caller.userId, caller.customerId).then((facts) => resolveTeamAccess(caller, facts));
}

export function createTeamAccessResolver(source: TeamFactsSource): TeamAccessResolver {
  const perCall = new WeakMap<object, Promise<TeamAccess>>();
  return (ctx) => {
    let access = perCall.get(ctx.values);
    if (!access) {
      access = teamAccessForCaller(source, requireAuth(ctx).caller);
      perCall.set(ctx.values, access);
    }
    return access;
  };
}
