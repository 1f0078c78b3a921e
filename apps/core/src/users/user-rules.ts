// User rules of document 2 ("User", "Authentication", Limits).
import { Code } from "@connectrpc/connect";
import { AuthErrorKey, roleName, serviceError, type Caller } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { AuthProvider, EditorLevel, UserFieldsSchema, type UserFields } from "@signage/contracts/signage/core/v1/user_pb";
import { checkPasswordRule } from "./passwords.js";
import type { UserRow } from "./user-row.js";
import { userToMessage } from "./user-mapper.js";
import { missingParameter } from "@signage/runtime";

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
  // gRPC callers send the number: one the contract does not define is no role (400, as an unknown name at the REST edge).
  if (Role[role] === undefined) throw serviceError(Code.InvalidArgument, "user.error.invalidRole", `${role} is not a role`, { role });
  if (role > caller.role) {
    throw serviceError(Code.PermissionDenied, "user.error.roleAboveCaller", `A ${roleName(caller.role)} cannot grant the role ${roleName(role)}`, {
      role: roleName(role),
    });
  }
}

/** editorLevel and authProvider numbers the contract does not define are refused (400), not dropped or stored as nothing. */
export function checkUserEnumValues(fields: UserFields): void {
  for (const [field, value, names] of [["editorLevel", fields.editorLevel, EditorLevel], ["authProvider", fields.authProvider, AuthProvider]] as const) {
    if (value !== undefined && (names as Record<number, string>)[value] === undefined) {
      throw serviceError(Code.InvalidArgument, "user.error.invalidValue", `${field} ${value} is not a defined value`, { field, value });
    }
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
 * own) may change only its profile fields (an allowlist, so a field added to UserFields later
 * is an OWNER's until named here). Any other field must repeat its current value as rendered
 * (e.g. forceToSet2FA true under a customer's force2FA). The password changes through
 * POST /api/user/password (with the old one), never here.
 */
export const OWN_PROFILE_FIELDS: ReadonlySet<string> = new Set(["email", "name", "editorLevel", "language", "comment", "address"]);

export function checkOwnProfileFields(fields: UserFields, me: UserRow): void {
  const current = userToMessage(me);
  const changed: string[] = [];
  for (const field of UserFieldsSchema.fields) {
    if (field.fieldKind !== "scalar" && field.fieldKind !== "enum") continue; // UserFields holds only these
    const requested = fields[field.localName as keyof UserFields];
    if (requested === undefined || OWN_PROFILE_FIELDS.has(field.jsonName)) continue;
    if (field.fieldKind === "enum" && requested === 0) continue; // UNSPECIFIED: not sent
    // A field User does not render (password) is always a change.
    const rendered = field.localName in current ? current[field.localName as keyof typeof current] : Symbol("absent");
    if (requested !== rendered) changed.push(field.jsonName);
  }
  if (changed.length === 0) return;
  throw serviceError(Code.PermissionDenied, AuthErrorKey.forbidden, `Only an OWNER may change ${changed.join(", ")} of a user; your own password changes through POST /api/user/password`, {
    fields: changed.join(","),
    requiredRole: "OWNER",
  });
}
