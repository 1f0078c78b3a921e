// Facts core publishes about teams and team access; every service with
// team-enabled resources replicates them (team-replica-consumer.ts) so it can
// resolve a caller's visibility without calling core.
import type { TeamAccessSettings, TeamMembership } from "@signage/auth";

export const TeamEvent = {
  created: "team.created",
  updated: "team.updated",
  /** Every service deletes the team's assignments. */
  deleted: "team.deleted",
  /** The user's full membership set (not a delta), after any change. */
  userTeamsChanged: "user.teams.changed",
  /** The user's `restricted` flag, role and customer, or its deletion. */
  userAccessChanged: "user.access.changed",
  /** The customer's five team access settings. */
  settingsChanged: "team.settings.changed",
} as const;

export const TEAM_EVENT_TYPES: readonly string[] = Object.values(TeamEvent);

export interface TeamEventData {
  id: string;
  customerId: number;
  name: string | null;
}

export interface UserTeamsChangedData {
  userId: string;
  customerId: number;
  teams: TeamMembership[];
}

export interface UserAccessChangedData {
  userId: string;
  customerId: number;
  restricted: boolean;
  deleted: boolean;
  /** The user's role name; absent from events published before it was carried. */
  role?: string;
  /** When core read these facts (ISO timestamp): a token issued earlier that disagrees is outdated. */
  asOf?: string;
}

export interface TeamSettingsChangedData {
  customerId: number;
  settings: TeamAccessSettings;
}
