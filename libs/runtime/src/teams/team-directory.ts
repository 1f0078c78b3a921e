// Which team ids exist in a tenant. Other services read their replica and, for
// ids the replica has not seen yet (a team created a moment ago), ask core once
// on behalf of the caller and remember the answer.
import { Code, type HandlerContext } from "@connectrpc/connect";
import type { Knex } from "knex";
import { serviceError } from "@signage/auth";
import { TeamService } from "@signage/contracts/signage/core/v1/team_pb";
import { onBehalfOf, type Peers } from "../peers/peers.js";
import { isUuid, matchesAnyUuid } from "./team-assignment-store.js";
import { teamsGoneFromReplica } from "./replica-versions.js";

export interface TeamDirectory {
  /** Throws 400 `team.error.notFound` naming the ids that are no team of the customer. */
  requireTeams(ctx: HandlerContext, customerId: number, teamIds: readonly string[]): Promise<void>;
}

async function knownTeams(knex: Knex | Knex.Transaction, customerId: number, ids: readonly string[]): Promise<Set<string>> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return new Set();
  const rows = await knex("team").whereRaw(...matchesAnyUuid("id", valid)).where({ customer_id: customerId }).select("id");
  return new Set(rows.map((r: { id: string }) => r.id));
}

/** Named in the message at most (the details list them; errors are bounded as a whole by the platform). */
const NAMED_AT_MOST = 20;

/** 400 `team.error.notFound` naming the ids that are no team of the customer (every service's answer). */
export function unknownTeams(ids: readonly string[]) {
  const more = ids.length > NAMED_AT_MOST ? `, and ${ids.length - NAMED_AT_MOST} more` : "";
  return serviceError(Code.InvalidArgument, "team.error.notFound", `Unknown team id(s): ${ids.slice(0, NAMED_AT_MOST).join(", ")}${more}`, { teamIds: [...ids], count: ids.length });
}

/** Core: its own `team` table is the truth. */
export function localTeamDirectory(knex: Knex): TeamDirectory {
  return {
    async requireTeams(_ctx, customerId, teamIds) {
      const known = await knownTeams(knex, customerId, teamIds);
      const missing = [...new Set(teamIds)].filter((id) => !known.has(id));
      if (missing.length > 0) throw unknownTeams(missing);
    },
  };
}

/**
 * Adds teams core named to the replica, but none the replica saw deleted: core read them before a
 * deletion whose team.deleted the replica may have applied since (written back, the team would be
 * assignable again, for good). A row the replica's events wrote meanwhile is theirs (its name is
 * as new or newer). Returns the teams kept.
 */
async function rememberTeams<T extends { id: string; name?: string }>(knex: Knex, customerId: number, teams: T[]): Promise<T[]> {
  if (teams.length === 0) return teams;
  return knex.transaction(async (trx) => {
    const gone = await teamsGoneFromReplica(trx, customerId, teams.map((t) => t.id));
    const kept = teams.filter((t) => !gone.has(t.id));
    if (kept.length > 0) {
      await trx("team")
        .insert(kept.map((t) => ({ id: t.id, customer_id: customerId, name: t.name ?? null })))
        .onConflict("id")
        .ignore();
    }
    return kept;
  });
}

/** Other services: the replica, then core for what the replica has not seen. */
export function replicaTeamDirectory(knex: Knex, peers: Peers): TeamDirectory {
  return {
    async requireTeams(ctx, customerId, teamIds) {
      const known = await knownTeams(knex, customerId, teamIds);
      let missing = [...new Set(teamIds)].filter((id) => !known.has(id));
      if (missing.length === 0) return;
      const asked = missing.filter(isUuid);
      if (asked.length > 0) {
        const { teams } = await peers.client(TeamService, "core").getTeams({ customerId: BigInt(customerId), teamIds: asked }, onBehalfOf(ctx));
        const found = await rememberTeams(knex, customerId, teams.filter((t) => Number(t.customerId) === customerId));
        const foundIds = new Set(found.map((t) => t.id));
        missing = missing.filter((id) => !foundIds.has(id));
      }
      if (missing.length > 0) throw unknownTeams(missing);
    },
  };
}
