// Team visibility policy (document 2 "User": "restricted = sees only
// team-assigned resources"; "Customer": the five team access settings). Pure:
// the facts are loaded by the service (libs/runtime teams), the SQL is made in
// team-sql.ts. One policy for every service and resource type.
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import type { Caller } from "../caller.js";

/** The customer's team access settings ("all boolean, default true"). */
export interface TeamAccessSettings {
  userFullAccessIfNotInTeam: boolean;
  accessResourcesWithoutTeam: boolean;
  isDeviceAndGroupCreationEnabledInRootForTeamUsers: boolean;
  isContentAndGroupCreationEnabledInRootForTeamUsers: boolean;
  isFileAndFolderCreationEnabledInRootForTeamUsers: boolean;
}

export const DEFAULT_TEAM_ACCESS_SETTINGS: TeamAccessSettings = Object.freeze({
  userFullAccessIfNotInTeam: true,
  accessResourcesWithoutTeam: true,
  isDeviceAndGroupCreationEnabledInRootForTeamUsers: true,
  isContentAndGroupCreationEnabledInRootForTeamUsers: true,
  isFileAndFolderCreationEnabledInRootForTeamUsers: true,
});

export interface TeamMembership {
  teamId: string;
  /** A read-only member reads the team's resources but never writes them. */
  readOnly: boolean;
}

/** What a service knows about the calling user (from core, or its replica). */
export interface TeamFacts {
  restricted: boolean;
  memberships: readonly TeamMembership[];
  settings: TeamAccessSettings;
}

/**
 * `full`: tenant scope only (unrestricted users, ADMIN, API clients).
 * `teams`: resources assigned to `teamIds`, plus those without team when
 * `includeWithoutTeam`; writes only through `writableTeamIds`.
 */
export type TeamAccess =
  | { readonly kind: "full"; readonly settings: TeamAccessSettings }
  | {
      readonly kind: "teams";
      readonly teamIds: readonly string[];
      readonly writableTeamIds: readonly string[];
      readonly includeWithoutTeam: boolean;
      readonly settings: TeamAccessSettings;
    };

export const FULL_TEAM_ACCESS: TeamAccess = Object.freeze({ kind: "full", settings: DEFAULT_TEAM_ACCESS_SETTINGS });

export function resolveTeamAccess(caller: Pick<Caller, "role" | "kind">, facts: TeamFacts | undefined): TeamAccess {
  const settings = facts?.settings ?? DEFAULT_TEAM_ACCESS_SETTINGS;
  if (!facts || caller.kind !== "user" || caller.role === Role.ADMIN || !facts.restricted) return { kind: "full", settings };
  // "userFullAccessIfNotInTeam": a restricted user in no team is not restricted at all.
  if (facts.memberships.length === 0 && settings.userFullAccessIfNotInTeam) return { kind: "full", settings };
  return {
    kind: "teams",
    teamIds: [...new Set(facts.memberships.map((m) => m.teamId))],
    writableTeamIds: [...new Set(facts.memberships.filter((m) => !m.readOnly).map((m) => m.teamId))],
    // "accessResourcesWithoutTeam": restricted users also see resources no team holds.
    includeWithoutTeam: settings.accessResourcesWithoutTeam,
    settings,
  };
}

/** One assignment of a resource, as stored by its owning service. */
export interface ResourceTeamAssignment {
  teamId: string;
  readOnly: boolean;
}

/**
 * What the caller may do with one resource, given all its assignments:
 * `write`, `read` (visible through read-only assignments or membership only) or
 * `none` (invisible: answer 404 as if it did not exist).
 */
export function resourceAccess(access: TeamAccess, assignments: readonly ResourceTeamAssignment[]): "write" | "read" | "none" {
  if (access.kind === "full") return "write";
  if (assignments.length === 0) return access.includeWithoutTeam ? "write" : "none";
  const writable = new Set(access.writableTeamIds);
  if (assignments.some((a) => !a.readOnly && writable.has(a.teamId))) return "write";
  const mine = new Set(access.teamIds);
  return assignments.some((a) => mine.has(a.teamId)) ? "read" : "none";
}

export type RootCreationArea = "deviceAndGroup" | "contentAndGroup" | "fileAndFolder";

/** The three root-creation flags: may a team user create in the root folder of `area`? */
export function mayCreateInRoot(access: TeamAccess, area: RootCreationArea): boolean {
  if (access.kind === "full") return true;
  const s = access.settings;
  if (area === "deviceAndGroup") return s.isDeviceAndGroupCreationEnabledInRootForTeamUsers;
  if (area === "contentAndGroup") return s.isContentAndGroupCreationEnabledInRootForTeamUsers;
  return s.isFileAndFolderCreationEnabledInRootForTeamUsers;
}
