// User rules of document 2 ("User", "Authentication", Limits).
import { Code } from "@connectrpc/connect";
import { AuthErrorKey, roleName, serviceError, type Caller } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { AuthProvider, type UserFields } from "@signage/contracts/signage/core/v1/user_pb";
import { checkPasswordRule } from "./passwords.js";
import type { UserRow } from "./user-row.js";
import { forceToSet2fa } from "./user-mapper.js";
import { missingParameter } from "../common/parameters.js";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string | undefined): string {
  const value = (email ?? "").trim();
  // "email: primary key, unique, valid format"
  if (!EMAIL.test(value) || value.length > 320) {
    throw serviceError(Code.InvalidArgument, "user.error.invalidEmail", `'${value}' is not a valid email address`, { email: value });
  }
  return value;
}

/** A caller may grant at most its own role, and never PUBLIC/UNSPECIFIED. */
export function checkAssignableRole(caller: Caller, role: Role | undefined, required: boolean): void {
  if (role === undefined || role === Role.UNSPECIFIED) {
    if (required) throw serviceError(Code.InvalidArgument, "user.error.roleRequired", "role is required");
    return;
  }
  if (role === Role.PUBLIC) throw serviceError(Code.InvalidArgument, "user.error.invalidRole", "PUBLIC is not a user role");
  if (role > caller.role) {
    throw serviceError(Code.PermissionDenied, "user.error.roleAboveCaller", `A ${roleName(caller.role)} cannot grant the role ${roleName(role)}`, {
      role: roleName(role),
    });
  }
}

export function checkAdminOnlyUserFields(caller: Caller, fields: UserFields): void {
  // "trustedAdmin: ADMIN only"
  if (fields.trustedAdmin !== undefined && caller.role !== Role.ADMIN) {
    throw serviceError(Code.InvalidArgument, "user.error.adminOnlyField", "Only ADMIN may set trustedAdmin", { fields: "trustedAdmin" });
  }
}

/** Create user: "customerId required for non-ADMIN" (ADMIN creates in its own tenant without it). */
export function checkCreateCustomerId(caller: Caller, customerId: bigint | undefined): void {
  if (customerId !== undefined || caller.role === Role.ADMIN) return;
  throw missingParameter("customerId", "customerId is required to create a user (only ADMIN may omit it)");
}

/** "password: write-only, at least 8 characters, optional for SSO-only" */
export function checkCreatePassword(fields: UserFields): void {
  const local = fields.authProvider === undefined || fields.authProvider === AuthProvider.LOCAL;
  if (fields.password === undefined) {
    if (local) throw serviceError(Code.InvalidArgument, "user.error.passwordRequired", "password is required for LOCAL users");
    return;
  }
  checkPasswordRule(fields.password);
}

/** "authProvider: LOCAL, LDAP, plus two single-sign-on provider values; immutable": an update may repeat it, never change it. */
export function checkAuthProviderUnchanged(fields: UserFields, current: string): void {
  const requested = fields.authProvider;
  if (requested === undefined || requested === AuthProvider.UNSPECIFIED || AuthProvider[requested] === current) return;
  throw serviceError(Code.InvalidArgument, "user.error.authProviderImmutable", "authProvider is immutable", {
    authProvider: current,
    requested: AuthProvider[requested],
  });
}

/**
 * A user below OWNER updating itself ("update another user ... OWNER"; its own profile is its
 * own): the fields an OWNER sets for others (role, readOnly, restricted, 2FA duty, login
 * methods, trustedAdmin, authProvider) stay as they are; repeating the current value is no
 * change. The password changes through POST /api/user/password (with the old one), never here.
 */
export function checkOwnProfileFields(fields: UserFields, me: UserRow): void {
  const changed: string[] = [];
  const differs = (name: string, requested: unknown, current: unknown) => {
    if (requested !== undefined && requested !== current) changed.push(name);
  };
  if (fields.role !== undefined && fields.role !== Role.UNSPECIFIED) differs("role", roleName(fields.role), me.role);
  if (fields.authProvider !== undefined && fields.authProvider !== AuthProvider.UNSPECIFIED) differs("authProvider", AuthProvider[fields.authProvider], me.auth_provider);
  differs("readOnly", fields.readOnly, me.read_only);
  differs("restricted", fields.restricted, me.restricted);
  // As rendered: a customer's force2FA shows as forceToSet2FA true (user-mapper.ts).
  differs("forceToSet2FA", fields.forceToSet2fa, forceToSet2fa(me));
  differs("use2FA", fields.use2fa, me.use_2fa);
  differs("ssoLoginEnabled", fields.ssoLoginEnabled, me.sso_login_enabled);
  differs("usernamePasswordLoginEnabled", fields.usernamePasswordLoginEnabled, me.username_password_login_enabled);
  differs("magicCodeLoginEnabled", fields.magicCodeLoginEnabled, me.magic_code_login_enabled);
  differs("oauthPasswordFlowEnabled", fields.oauthPasswordFlowEnabled, me.oauth_password_flow_enabled);
  differs("trustedAdmin", fields.trustedAdmin, me.trusted_admin);
  if (fields.password !== undefined) changed.push("password");
  if (changed.length === 0) return;
  throw serviceError(Code.PermissionDenied, AuthErrorKey.forbidden, `Only an OWNER may change ${changed.join(", ")} of a user; your own password changes through POST /api/user/password`, {
    fields: changed.join(","),
    requiredRole: "OWNER",
  });
}
