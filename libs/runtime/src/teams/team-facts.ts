// Where a service reads the calling user's team facts: its replica (every
// service but core) or core's own tables (core passes its own source).
import type { Knex } from "knex";
import { DEFAULT_TEAM_ACCESS_SETTINGS, cacheMsFromEnv, type AccessFactsCache, type TeamAccessSettings, type TeamFacts } from "@signage/auth";

export type TeamFactsSource = (userId: string, customerId: number) => Promise<TeamFacts | undefined>;

interface SettingsRow {
  user_full_access_if_not_in_team: boolean;
  access_resources_without_team: boolean;
  device_creation_in_root_for_team_users: boolean;
  content_creation_in_root_for_team_users: boolean;
  file_creation_in_root_for_team_users: boolean;
}

/** The five settings from a row using the column names of core's customer table (and the replica). */
export function settingsFromRow(row: SettingsRow | null | undefined): TeamAccessSettings {
  if (!row) return DEFAULT_TEAM_ACCESS_SETTINGS;
  return {
    userFullAccessIfNotInTeam: row.user_full_access_if_not_in_team,
    accessResourcesWithoutTeam: row.access_resources_without_team,
    isDeviceAndGroupCreationEnabledInRootForTeamUsers: row.device_creation_in_root_for_team_users,
    isContentAndGroupCreationEnabledInRootForTeamUsers: row.content_creation_in_root_for_team_users,
    isFileAndFolderCreationEnabledInRootForTeamUsers: row.file_creation_in_root_for_team_users,
  };
}

export function settingsToRow(s: TeamAccessSettings): SettingsRow {
  return {
    user_full_access_if_not_in_team: s.userFullAccessIfNotInTeam,
    access_resources_without_team: s.accessResourcesWithoutTeam,
    device_creation_in_root_for_team_users: s.isDeviceAndGroupCreationEnabledInRootForTeamUsers,
    content_creation_in_root_for_team_users: s.isContentAndGroupCreationEnabledInRootForTeamUsers,
    file_creation_in_root_for_team_users: s.isFileAndFolderCreationEnabledInRootForTeamUsers,
  };
}

/** One round trip: the user's flag, memberships and the customer's settings from the replica. */
export function replicaTeamFacts(knex: Knex): TeamFactsSource {
  return async (userId, customerId) => {
    const { rows } = await knex.raw(
      `select
         (select restricted from team_user where user_id = ?::uuid) as restricted,
         (select row_to_json(s) from team_settings s where s.customer_id = ?) as settings,
         coalesce((select json_agg(json_build_object('teamId', m.team_id, 'readOnly', m.read_only))
                     from team_membership m where m.user_id = ?::uuid), '[]'::json) as memberships`,
      [userId, customerId, userId],
    );
    const row = rows[0] as { restricted: boolean | null; settings: SettingsRow | null; memberships: { teamId: string; readOnly: boolean }[] };
    return { restricted: row.restricted === true, memberships: row.memberships, settings: settingsFromRow(row.settings) };
  };
}

/**
 * `source` with its answers kept in `cache` (every list of a team-enabled resource
 * asks for the caller's facts). The replica consumer evicts a tenant's answers
 * after applying one of its team events (TeamReplicaOptions.onApplied).
 */
export function cachedTeamFacts(source: TeamFactsSource, cache: AccessFactsCache<TeamFacts | undefined>): TeamFactsSource {
  return (userId, customerId) => cache.get(customerId, userId, () => source(userId, customerId));
}

/** `TEAM_ACCESS_CACHE_MS` (default 1000; 0 turns the cache off). */
export function teamAccessCacheMs(env: Record<string, string | undefined>): number {
  return cacheMsFromEnv(env, "TEAM_ACCESS_CACHE_MS");
}
