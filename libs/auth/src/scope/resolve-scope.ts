import { Code } from "@connectrpc/connect";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import type { Caller } from "../caller.js";
import { serviceError } from "../errors/service-error.js";
import { AuthErrorKey } from "../errors/auth-error-keys.js";
import { GLOBAL_SCOPE, tenantScope, type Scope } from "./scope.js";
import type { TenantDirectory } from "./tenant-directory.js";

/** `customerId=-1` explicitly asks for the cross-tenant scope. */
export const ALL_CUSTOMERS = -1;

export interface ResolveScopeInput {
  caller: Caller;
  /** The request's customerId selector, undefined when absent or the method has none. */
  requestedCustomerId: number | undefined;
  directory: TenantDirectory;
}

/**
 * The seed's "Customer scoping" table:
 *   ADMIN          | without: all tenants (global) | with: that tenant
 *   Network owner  | without: all member tenants    | with: that tenant, if owned
 *   Other roles    | own tenant                     | own tenant
 * `-1` means the cross-tenant scope of the caller.
 */
export async function resolveScope({ caller, requestedCustomerId, directory }: ResolveScopeInput): Promise<Scope> {
  const requested = requestedCustomerId === ALL_CUSTOMERS ? undefined : requestedCustomerId;

  if (caller.role === Role.ADMIN) {
    if (requested === undefined) return GLOBAL_SCOPE;
    return tenantScope(validCustomerId(requested));
  }

  if (caller.networkOwner) {
    if (requested === caller.customerId) return tenantScope(caller.customerId);
    const members = await directory.membersOf(caller.customerId);
    // The network owner's own tenant stays in its cross-tenant scope next to its members.
    if (requested === undefined) return tenantScope(caller.customerId, ...members);
    if (members.includes(requested)) return tenantScope(requested);
    throw serviceError(Code.PermissionDenied, AuthErrorKey.customerNotOwned, "customer is not owned by the caller", {
      customerId: requested,
    });
  }

  // Other roles: a selector naming another tenant never widens the scope; it is ignored.
  return tenantScope(caller.customerId);
}

function validCustomerId(id: number): number {
  if (Number.isSafeInteger(id) && id > 0) return id;
  throw serviceError(Code.InvalidArgument, AuthErrorKey.customerIdInvalid, "customerId must be a positive id or -1", {
    customerId: id,
  });
}
