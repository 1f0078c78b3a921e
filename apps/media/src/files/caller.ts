// Who is calling, as the library's rules need it.
import { roleAtLeast, singleTenant, type AuthContext } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";

/**
 * The one tenant a create or batch write lands in: the selected customer, else the
 * caller's own (a network owner or ADMIN without customerId acts on its own tenant).
 */
export function writeTenant(auth: AuthContext): number {
  if (auth.scope.kind === "global") return auth.caller.customerId;
  if (auth.scope.customerIds.length > 1 && auth.scope.customerIds.includes(auth.caller.customerId)) return auth.caller.customerId;
  return singleTenant(auth.scope);
}

/**
 * The one tenant of a batch operation (bulk tags and validity). "Batch operations ... require
 * customerId and cannot run across tenants": a global (ADMIN) or multi-tenant (network owner)
 * scope is refused with 400 customer.error.customerIdRequired, never narrowed to the caller's
 * own tenant as writeTenant does for creates.
 */
export function batchTenant(auth: AuthContext): number {
  return singleTenant(auth.scope);
}

/** "readOnly: true when caller has no write access" (role part; team read-only comes from the teams hook). */
export function callerCannotWrite(auth: AuthContext): boolean {
  return !roleAtLeast(auth.caller.role, Role.EDITOR);
}
