// Document 2 "Team": "Resource types assignable to teams", and which service
// owns each. Types whose service is not built yet answer 501.
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import type { ServiceName } from "@signage/runtime";

export const TEAM_RESOURCE_TYPES = [
  "user", "device", "deviceGroup", "deviceContent", "contentGroup", "file", "fileFolder", "datasource", "campaign", "message",
  "messageGroup", "betaTenant", "alphaCredential", "advertiser", "customCredential", "alertRule", "notificationChannel",
  "webhookEventAction", "webhookApiKey", "deviceInstallRule", "quickFilter",
] as const;

export type TeamResourceType = (typeof TEAM_RESOURCE_TYPES)[number];

/** Owning service of each type (routes.tsv service split). */
export const OWNER_OF: Record<TeamResourceType, ServiceName> = {
  user: "core", device: "core", deviceGroup: "core", deviceContent: "core", contentGroup: "core", campaign: "core", message: "core",
  messageGroup: "core", quickFilter: "core", datasource: "core",
  file: "media", fileFolder: "media",
  betaTenant: "media", alphaCredential: "media", customCredential: "media",
  advertiser: "licensing",
  alertRule: "integration", notificationChannel: "integration", webhookEventAction: "integration", webhookApiKey: "integration", deviceInstallRule: "integration",
};

/** Types whose owning service implements TeamAssignmentService today. */
export const TEAM_ENABLED: ReadonlySet<TeamResourceType> = new Set<TeamResourceType>(["user", "quickFilter", "file", "fileFolder"]);

/** `fileFolder`, `FileFolder` (from update{ResourceType}Assignments) -> `fileFolder`; unknown -> 400. */
export function teamResourceType(raw: string): TeamResourceType {
  const name = raw.charAt(0).toLowerCase() + raw.slice(1);
  const found = TEAM_RESOURCE_TYPES.find((t) => t === name);
  if (!found) {
    throw serviceError(Code.InvalidArgument, "team.error.unknownResourceType", `Unknown resource type '${raw}'; team-assignable types: ${TEAM_RESOURCE_TYPES.join(", ")}`, {
      resourceType: raw,
    });
  }
  return found;
}

/**
 * The query parameter naming the resource on `POST /api/{resource}/updateTeamAssignments`:
 * `<type>Id`, except where a document names another (document 3, webhook actions: "query actionId").
 */
export function idParamOf(type: TeamResourceType): string {
  return type === "webhookEventAction" ? "actionId" : `${type}Id`;
}

export function requireTeamEnabled(type: TeamResourceType): ServiceName {
  if (!TEAM_ENABLED.has(type)) {
    throw serviceError(Code.Unimplemented, "team.error.resourceTypeNotEnabled", `Resource type ${type} is not team-enabled yet`, { resourceType: type });
  }
  return OWNER_OF[type];
}

/** `team{Resource}Number` field of the Team message for a type (`fileFolder` -> teamFileFolderNumber). */
export function countField(type: string): string {
  return `team${type.charAt(0).toUpperCase()}${type.slice(1)}Number`;
}
