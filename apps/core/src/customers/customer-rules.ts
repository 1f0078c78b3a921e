// The customer rules of document 2 ("Customer"; ROLES.md for ADMIN-only fields),
// checked before anything is written.
import { Code } from "@connectrpc/connect";
import { serviceError, type Caller } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { LicenseTier, type CustomerFields } from "@signage/contracts/signage/core/v1/customer_pb";

/** "Fields that only ADMIN may set (needsToBeInvoiced, resourceLimits, freeLicenses, browserSessionLicenses, deviceSessionLimit, storageSize) are ... refused (400) for anyone else". */
const ADMIN_ONLY: Array<keyof CustomerFields> = [
  "needsToBeInvoiced",
  "resourceLimits",
  "freeLicenses",
  "browserSessionLicenses",
  "deviceSessionLimit",
  "storageSize",
];

export const isAdmin = (caller: Caller) => caller.role === Role.ADMIN;
export const isNetworkOwnerCaller = (caller: Caller) => caller.networkOwner && caller.role >= Role.OWNER;

function invalid(key: string, message: string, details: Record<string, string | number | boolean> = {}) {
  return serviceError(Code.InvalidArgument, key, message, details);
}

export function refuseAdminOnlyFields(caller: Caller, fields: CustomerFields): void {
  if (isAdmin(caller)) return;
  const set = ADMIN_ONLY.filter((name) => fields[name] !== undefined);
  // "ownerSubresellerId (ADMIN)"; a network owner naming itself states what happens anyway.
  if (fields.ownerSubresellerId !== undefined && Number(fields.ownerSubresellerId) !== caller.customerId) set.push("ownerSubresellerId");
  if (set.length > 0) {
    throw invalid("customer.error.adminOnlyField", `Only ADMIN may set ${set.join(", ")}`, { fields: set.join(",") });
  }
}

export function validateName(name: string | undefined, required: boolean): string | undefined {
  if (name === undefined) {
    if (required) throw invalid("customer.error.nameRequired", "name is required");
    return undefined;
  }
  const trimmed = name.trim();
  if (!trimmed) throw invalid("customer.error.nameRequired", "name must not be empty");
  if (trimmed.length > 255) throw invalid("customer.error.nameTooLong", "name must be at most 255 characters");
  return trimmed;
}

/**
 * "A network owner creating a customer gets ownerSubresellerId set to its own id, cannot set
 * freeLicenses or browserSessionLicenses, cannot create or convert Enterprise customers, and
 * must state licenseTier as STARTER or BUSINESS."
 */
export function checkNetworkOwnerTier(fields: CustomerFields, onCreate: boolean): void {
  const tier = fields.licenseTier;
  if (tier === undefined) {
    if (onCreate) throw invalid("customer.error.licenseTierRequired", "A network owner must state licenseTier STARTER or BUSINESS");
    return;
  }
  if (tier !== LicenseTier.STARTER && tier !== LicenseTier.BUSINESS) {
    throw invalid("customer.error.licenseTierNotAllowed", "A network owner may only use licenseTier STARTER or BUSINESS", { licenseTier: LicenseTier[tier] });
  }
}

export function checkNotSubresellerRequestByNonAdmin(caller: Caller, fields: CustomerFields): void {
  if (fields.createAsSubreseller && !isAdmin(caller)) {
    throw invalid("customer.error.adminOnlyField", "Only ADMIN may create a network owner", { fields: "createAsSubreseller" });
  }
}

/**
 * Network membership has operations of its own ("Move under network owner (ADMIN) | PUT
 * `/api/customer/{id}/moveToSubreseller?subresellerId=<id>`", promote / remove privilege);
 * an update naming these create-time fields would otherwise be silently ignored.
 */
export function refuseNetworkFieldsOnUpdate(fields: CustomerFields, current: { ownerSubresellerId: number | null; networkOwner: boolean }): void {
  // Echoing a customer as it was read is no change.
  const owner = fields.ownerSubresellerId === undefined ? undefined : Number(fields.ownerSubresellerId);
  if (owner !== undefined && owner !== (current.ownerSubresellerId ?? 0)) {
    throw invalid("customer.error.createOnlyField", "ownerSubresellerId is set on create; move a customer with PUT /api/customer/{id}/moveToSubreseller?subresellerId=<id>", {
      fields: "ownerSubresellerId",
    });
  }
  // false is the form default ("do not create as network owner"), never a demotion.
  if (fields.createAsSubreseller === true && !current.networkOwner) {
    throw invalid("customer.error.createOnlyField", "createAsSubreseller is set on create; promote a customer with POST /api/customer/{id}/promoteAsSubreseller", {
      fields: "createAsSubreseller",
    });
  }
}

/**
 * Fields that govern a customer's own access and licence: set by its manager (ADMIN, or its
 * network owner), never by the customer itself; otherwise an OWNER could lift its own
 * restriction or expiration ("restricted: true disables all access").
 */
const MANAGER_ONLY: Array<keyof CustomerFields> = ["restricted", "expirationDate", "licenseTier"];

export function refuseManagerOnlyFieldsOnOwnCustomer(caller: Caller, targetId: number, fields: CustomerFields): void {
  if (isAdmin(caller) || targetId !== caller.customerId) return;
  const set = MANAGER_ONLY.filter((name) => fields[name] !== undefined);
  if (set.length > 0) {
    throw invalid("customer.error.managerOnlyField", `Only ADMIN or the customer's network owner may set ${set.join(", ")}`, { fields: set.join(",") });
  }
}

/** The platform customer holds the super admins: blocking it would lock everyone out. */
export function refuseBlockingPlatform(platform: boolean, fields: CustomerFields): void {
  if (!platform) return;
  if (fields.restricted === true || (fields.expirationDate !== undefined && fields.expirationDate !== 0n)) {
    throw invalid("customer.error.platformCustomer", "The platform customer cannot be restricted or given an expiration date");
  }
}
