// Keeps a service's replica of core's team facts, exactly once per event
// (inbox in the same transaction), and removes a deleted team's assignments
// from the service's own resources.
import type { Knex } from "knex";
import { withInbox, type EventBus, type Subscription } from "@signage/events";
import { TeamEvent, TEAM_EVENT_TYPES, type TeamEventData, type TeamSettingsChangedData, type UserAccessChangedData, type UserTeamsChangedData } from "./team-events.js";
import { settingsToRow } from "./team-facts.js";
import { removeTeamEverywhere } from "./team-assignment-store.js";
import type { TeamResourceTable, TeamResourceTables } from "./team-resource-tables.js";
import { customerKey, deletedTeams, forgetCustomerVersions, isStale, type VersionedChange } from "./replica-versions.js";
import { isTenantDeleted } from "../tenants/tenant-replica.js";

export interface TeamReplicaOptions {
  /** The service's team-enabled tables (team.deleted clears their team_ids). */
  tables: TeamResourceTables;
  /**
   * In the event's transaction, after team.deleted changed these resources' team_ids
   * (as TeamAssignmentDeps.onWritten: e.g. media re-announces its files' tags with their teams).
   */
  onWritten?: (trx: Knex.Transaction, table: TeamResourceTable, resourceIds: readonly string[]) => Promise<void>;
  /** After an event's transaction committed: the tenant whose team facts it may have changed (cache eviction). */
  onApplied?: (customerId: number) => void;
}

export function subscribeTeamReplica(bus: EventBus, knex: Knex, service: string, options: TeamReplicaOptions): Promise<Subscription> {
  const consumer = `${service}.teams`;
  const apply = withInbox(knex, consumer, async (event, trx) => {
    await applyTeamEvent(trx, options, event.type, event.data, event.seq);
  });
  return bus.subscribe({
    consumer,
    types: [...TEAM_EVENT_TYPES, "customer.deleted"],
    startFrom: "all",
    // Never dead-lettered: a dropped fact (a team, a user's deletion, a membership) would leave
    // the replica wrong for good. A failing event is retried with the bus's back-off; the
    // versions (replica-versions.ts) keep later events applied meanwhile from being undone.
    maxDeliver: Infinity,
    async handler(event) {
      await apply(event);
      options.onApplied?.(tenantOfTeamEvent(event.type, event.data));
    },
  });
}

/** The tenant a team event (or customer.deleted) is about. */
function tenantOfTeamEvent(type: string, data: unknown): number {
  return type === "customer.deleted" ? (data as { id: number }).id : (data as { customerId: number }).customerId;
}

/** What an event changes, for the version check (replica-versions.ts); undefined for types this replica ignores. */
function changeOf(type: string, data: unknown): VersionedChange | undefined {
  switch (type) {
    case TeamEvent.created:
    case TeamEvent.updated:
    case TeamEvent.deleted: {
      const team = data as TeamEventData;
      return { customerId: team.customerId, keys: [`team:${team.id}`] };
    }
    case TeamEvent.userTeamsChanged: {
      const change = data as UserTeamsChangedData;
      return { customerId: change.customerId, keys: [`user-teams:${change.userId}`] };
    }
    case TeamEvent.userAccessChanged: {
      const user = data as UserAccessChangedData;
      // A deleted user's memberships go too: older membership changes must not bring them back.
      return { customerId: user.customerId, keys: user.deleted ? [`user-access:${user.userId}`, `user-teams:${user.userId}`] : [`user-access:${user.userId}`] };
    }
    case TeamEvent.settingsChanged:
      return { customerId: (data as TeamSettingsChangedData).customerId, keys: [`settings:${(data as TeamSettingsChangedData).customerId}`] };
    case "customer.deleted": {
      const customerId = (data as { id: number }).id;
      return { customerId, keys: [customerKey(customerId)] };
    }
    default:
      return undefined;
  }
}

/**
 * Applies one event to the replica. `seq` (core's outbox sequence, on every event its relay
 * publishes): an event older than what the replica already applied for the same thing is skipped.
 */
export async function applyTeamEvent(trx: Knex.Transaction, options: TeamReplicaOptions, type: string, data: unknown, seq?: number): Promise<void> {
  const change = changeOf(type, data);
  if (change && seq !== undefined && (await isStale(trx, change, seq))) return;
  switch (type) {
    case TeamEvent.created:
    case TeamEvent.updated: {
      const team = data as TeamEventData;
      await trx("team").insert({ id: team.id, customer_id: team.customerId, name: team.name }).onConflict("id").merge(["name"]);
      return;
    }
    case TeamEvent.deleted: {
      const team = data as TeamEventData;
      for (const { table, resourceIds } of await removeTeamEverywhere(trx, options.tables.values(), team.id)) {
        if (resourceIds.length > 0) await options.onWritten?.(trx, table, resourceIds);
      }
      await trx("team_membership").where({ team_id: team.id }).delete();
      await trx("team").where({ id: team.id }).delete();
      return;
    }
    case TeamEvent.userTeamsChanged: {
      const change = data as UserTeamsChangedData;
      await trx("team_membership").where({ user_id: change.userId }).delete();
      // An older change retried after a team's deletion must not bring back a membership of it.
      const gone = await deletedTeams(trx, change.teams.map((t) => t.teamId));
      const teams = change.teams.filter((t) => !gone.has(t.teamId));
      if (teams.length > 0) {
        await trx("team_membership").insert(teams.map((t) => ({ user_id: change.userId, team_id: t.teamId, read_only: t.readOnly, customer_id: change.customerId })));
      }
      return;
    }
    case TeamEvent.userAccessChanged: {
      const user = data as UserAccessChangedData;
      // A deleted user's row stays as a tombstone: its tokens are refused (replica-current-user.ts).
      // Not once its customer is gone (its tokens are refused as the customer's): nothing of a deleted
      // customer stays, whichever of the tenant purge and this event comes first (lockCustomerReplica).
      if (user.deleted) await trx("team_membership").where({ user_id: user.userId }).delete();
      if (user.deleted && (await isTenantDeleted(trx, user.customerId))) {
        await trx("team_user").where({ user_id: user.userId }).delete();
        return;
      }
      await trx("team_user")
        .insert({ user_id: user.userId, customer_id: user.customerId, restricted: user.restricted, deleted: user.deleted, role: user.role ?? null, as_of: user.asOf ?? null })
        .onConflict("user_id")
        .merge(["restricted", "customer_id", "deleted", "role", "as_of"]);
      return;
    }
    case TeamEvent.settingsChanged: {
      const s = data as TeamSettingsChangedData;
      await trx("team_settings").insert({ customer_id: s.customerId, ...settingsToRow(s.settings) }).onConflict("customer_id").merge();
      return;
    }
    case "customer.deleted": {
      const customerId = (data as { id: number }).id;
      for (const table of ["team_assignment", "team_membership", "team_user", "team_settings", "team"]) await trx(table).where({ customer_id: customerId }).delete();
      await forgetCustomerVersions(trx, customerId);
      return;
    }
  }
}
