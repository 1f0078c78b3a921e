// The user list's fields (document 2 "User"). Secrets (password hash, TOTP
// secrets) are not declared, so no filter or projection can reach them.
import { defineResource } from "@signage/query";
import { customerResource } from "../customers/customer-resource.js";
import { uiProfileResource } from "../ui-profiles/ui-profile-resource.js";

const ROLES = ["ADMIN", "OWNER", "TECHNICIAN", "APPROVER", "EDITOR", "VIEWER", "DEVICE_USER"] as const;

export const userResource = defineResource({
  table: "app_user",
  alias: "u",
  idColumn: "id",
  tenantColumn: "customer_id",
  defaultSort: ["email,asc"],
  // Team memberships are users' team assignments (teams/user-teams.ts); `team_ids` carries them for visibility.
  teams: { table: "team_assignment", teamIdType: "uuid" },
  fields: {
    id: { type: "id", sqlType: "uuid" },
    email: { type: "string", index: "trgm" },
    name: { type: "string" },
    role: { type: "enum", values: ROLES },
    authProvider: { type: "enum", values: ["LOCAL", "LDAP", "SSO_ALPHA", "SSO_BETA"] },
    editorLevel: { type: "enum", values: ["BASIC", "ADVANCED", "PROFESSIONAL"] },
    language: { type: "string" },
    comment: { type: "string" },
    address: { type: "string" },
    readOnly: { type: "boolean" },
    restricted: { type: "boolean" },
    use2FA: { type: "boolean", column: "use_2fa" },
    forceToSet2FA: { type: "boolean", column: "force_to_set_2fa" },
    ssoLoginEnabled: { type: "boolean" },
    usernamePasswordLoginEnabled: { type: "boolean" },
    magicCodeLoginEnabled: { type: "boolean" },
    oauthPasswordFlowEnabled: { type: "boolean" },
    trustedAdmin: { type: "boolean" },
    lastLogin: { type: "timestamp" },
    lastActivity: { type: "timestamp" },
    createdDate: { type: "timestamp" },
    customerId: { type: "number", sqlType: "bigint", column: "customer_id", selectable: false },
    customer: { type: "relation", cardinality: "one", target: customerResource, localColumn: "customer_id", targetColumn: "id" },
    userInterfaceProfile: { type: "relation", cardinality: "one", target: uiProfileResource, localColumn: "ui_profile_id", targetColumn: "id" },
  },
});
