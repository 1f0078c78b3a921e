import { create } from "@bufbuild/protobuf";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { AuthProvider, EditorLevel, UserSchema, type User } from "@signage/contracts/signage/core/v1/user_pb";
import { enumFromName } from "../customers/customer-mapper.js";
import type { UserRow } from "./user-row.js";
import { assignmentsToMessage } from "../teams/assignments-json.js";

const ms = (d: Date | null) => (d ? BigInt(d.getTime()) : undefined);

export const PROFILE_PICTURE_PATH = "/api/v2/user/profilePicture";

/**
 * Customer "force2FA | boolean | mandatory 2FA for all users": a user of such a customer
 * without 2FA on must set it up, whatever its own flag says (which an OWNER may also set).
 */
export function forceToSet2fa(row: Pick<UserRow, "force_to_set_2fa" | "use_2fa" | "customer_force_2fa">): boolean {
  return row.force_to_set_2fa || (row.customer_force_2fa && !row.use_2fa);
}

/**
 * Held to the methods that get it compliant or let it leave (`allowed_before_2fa_setup`): forced
 * to set 2FA up and not using it yet. A user who has 2FA on is compliant even while an OWNER's
 * own flag still shows forceToSet2FA (POST /api/user/2fa?enable=true clears that flag then).
 */
export function mustSetUp2fa(row: Pick<UserRow, "force_to_set_2fa" | "use_2fa" | "customer_force_2fa">): boolean {
  return forceToSet2fa(row) && !row.use_2fa;
}

export function userToMessage(row: UserRow): User {
  return create(UserSchema, {
    id: row.id,
    email: row.email,
    name: row.name ?? undefined,
    role: enumFromName(Role, row.role),
    authProvider: enumFromName(AuthProvider, row.auth_provider),
    editorLevel: enumFromName(EditorLevel, row.editor_level),
    language: row.language ?? undefined,
    comment: row.comment ?? undefined,
    address: row.address ?? undefined,
    readOnly: row.read_only,
    restricted: row.restricted,
    use2fa: row.use_2fa,
    forceToSet2fa: forceToSet2fa(row),
    ssoLoginEnabled: row.sso_login_enabled,
    usernamePasswordLoginEnabled: row.username_password_login_enabled,
    magicCodeLoginEnabled: row.magic_code_login_enabled,
    oauthPasswordFlowEnabled: row.oauth_password_flow_enabled,
    trustedAdmin: row.trusted_admin,
    lastLogin: ms(row.last_login),
    lastActivity: ms(row.last_activity),
    createdDate: ms(row.created_date),
    hasProfilePicture: row.has_profile_picture,
    profilePictureApiPath: row.has_profile_picture ? `${PROFILE_PICTURE_PATH}?email=${encodeURIComponent(row.email)}` : undefined,
    active: !row.customer_restricted && (row.customer_expiration_date === null || row.customer_expiration_date.getTime() > Date.now()),
    microsoftSsoEnabled: row.sso_login_enabled && row.auth_provider !== "LOCAL",
    pinCodePresent: false,
    customer: {
      id: BigInt(row.customer_id),
      name: row.customer_name,
      expirationDate: ms(row.customer_expiration_date),
      force2fa: row.customer_force_2fa,
    },
    userInterfaceProfile: row.ui_profile_id ? { id: BigInt(row.ui_profile_id), name: row.ui_profile_name ?? undefined } : undefined,
    teamAssignments: assignmentsToMessage(row.team_assignments),
  });
}
