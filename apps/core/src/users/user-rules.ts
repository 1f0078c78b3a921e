// User rules of document 2 ("User", "Authentication", Limits).
import { Code } from "@connectrpc/connect";
import { roleName, serviceError, type Caller } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { AuthProvider, type UserFields } from "@signage/contracts/signage/core/v1/user_pb";
import { checkPasswordRule } from "./passwords.js";

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
  throw serviceError(Code.InvalidArgument, "request.error.missingParameter", "customerId is required to create a user (only ADMIN may omit it)", { parameter: "customerId" });
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
