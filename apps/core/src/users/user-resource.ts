// The user list's fields (document 2 "User"). Secrets (password hash, TOTP
// secrets) are not declared, so no filter or projection can reach them.
import { defineResource } from "@signage/query";
import { customerResource } from "../customers/customer-resource.js";
import { uiProfileResource } from "../ui-profiles/ui-profile-resource.js";
import { PROFILE_PICTURE_PATH } from "./user-mapper.js";

const ROLES = ["ADMIN", "OWNER", "TECHNICIAN", "APPROVER", "EDITOR", "VIEWER", "DEVICE_USER"] as const;

// The computed user fields ("hasProfilePicture, profilePictureApiPath, active, microsoftSsoEnabled,
// pinCodePresent | computed"), in SQL so that a list renders them exactly as user-mapper.ts does
// for single users. Computed fields load only when named in `select`.
const HAS_PICTURE = "EXISTS (SELECT 1 FROM user_profile_picture pp WHERE pp.user_id = ??)";
// encodeURIComponent(email) in SQL: every character outside its unreserved set becomes %XX per UTF-8 byte.
const ENCODED = `(SELECT string_agg(CASE WHEN ch ~ '^[A-Za-z0-9_.!~*''()-]$' THEN ch ELSE upper(regexp_replace(encode(convert_to(ch, 'UTF8'), 'hex'), '(..)', '%\\1', 'g')) END, '' ORDER BY i) FROM regexp_split_to_table(??, '') WITH ORDINALITY AS s(ch, i))`;

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
    // The user's own flag, or its customer's "force2FA | boolean | mandatory 2FA for all users" while
    // it has no 2FA (user-mapper.ts forceToSet2fa): one expression, so search and sort agree with it.
    forceToSet2FA: {
      type: "boolean",
      computed: { sql: "(?? OR (NOT ?? AND coalesce((SELECT cu.force_2fa FROM customer cu WHERE cu.id = ??), false)))", columns: ["force_to_set_2fa", "use_2fa", "customer_id"] },
      selectOnly: false,
    },
    ssoLoginEnabled: { type: "boolean" },
    usernamePasswordLoginEnabled: { type: "boolean" },
    magicCodeLoginEnabled: { type: "boolean" },
    oauthPasswordFlowEnabled: { type: "boolean" },
    trustedAdmin: { type: "boolean" },
    lastLogin: { type: "timestamp" },
    lastActivity: { type: "timestamp" },
    createdDate: { type: "timestamp" },
    hasProfilePicture: { type: "boolean", computed: { sql: HAS_PICTURE, columns: ["id"] } },
    profilePictureApiPath: {
      type: "string",
      searchable: false,
      // chr(63) is '?': the list's SQL templates reserve '?' for column placeholders.
      computed: { sql: `CASE WHEN ${HAS_PICTURE} THEN '${PROFILE_PICTURE_PATH}' || chr(63) || 'email=' || ${ENCODED} END`, columns: ["id", "email"] },
    },
    active: {
      type: "boolean",
      computed: { sql: "(SELECT NOT cu.restricted AND (cu.expiration_date IS NULL OR cu.expiration_date > now()) FROM customer cu WHERE cu.id = ??)", columns: ["customer_id"] },
    },
    microsoftSsoEnabled: { type: "boolean", computed: { sql: "?? AND ?? <> 'LOCAL'", columns: ["sso_login_enabled", "auth_provider"] } },
    // No PIN codes exist yet (user-mapper.ts answers false as well).
    pinCodePresent: { type: "boolean", computed: { sql: "false", columns: [] } },
    customerId: { type: "number", sqlType: "bigint", column: "customer_id", selectable: false },
    // Selected as the nested objects User publishes (UserCustomer, UserInterfaceProfileRef); searchable through every field.
    customer: { type: "relation", cardinality: "one", target: customerResource, localColumn: "customer_id", targetColumn: "id", published: ["id", "name", "expirationDate", "force2FA"] },
    userInterfaceProfile: { type: "relation", cardinality: "one", target: uiProfileResource, localColumn: "ui_profile_id", targetColumn: "id", published: ["id", "name"] },
  },
});
