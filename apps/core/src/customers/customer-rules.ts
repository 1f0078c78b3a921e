// The customer rules of document 2 ("Customer"; ROLES.md for ADMIN-only fields),
// checked before anything is written.
import { Code } from "@connectrpc/connect";
import { serviceError, type Caller } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { LicenseTier, Vertical, type CustomerFields } from "@signage/contracts/signage/core/v1/customer_pb";
import type { Value } from "@bufbuild/protobuf/wkt";
import { TIMESTAMP_MAX_MS, TIMESTAMP_MIN_MS } from "@signage/query";

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
export function checkNetworkOwnerTier(fields: CustomerFields, onCreate: boolean, currentTier?: LicenseTier): void {
  const tier = fields.licenseTier;
  if (tier === undefined) {
    if (onCreate) throw invalid("customer.error.licenseTierRequired", "A network owner must state licenseTier STARTER or BUSINESS");
    return;
  }
  // "cannot ... convert Enterprise customers": an Enterprise member (an ADMIN made it so) keeps its tier; sending it back unchanged is no conversion.
  if (currentTier === LicenseTier.ENTERPRISE && tier !== LicenseTier.ENTERPRISE) {
    throw invalid("customer.error.licenseTierNotAllowed", "A network owner cannot convert an Enterprise customer to another licenseTier", { licenseTier: LicenseTier[tier], currentLicenseTier: "ENTERPRISE" });
  }
  if (tier === currentTier) return;
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

/**
 * "storageSize | long | bytes, null = unlimited": absent leaves it unchanged (undefined), JSON
 * null sets it back to unlimited (null), a non-negative integer (or its decimal string, as int64s
 * travel in JSON) is the quota in bytes. Anything else is a 400, never a silent no-op.
 */
export function storageSizeOf(value: Value | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  const kind = value.kind;
  if (kind.case === "nullValue") return null;
  const n = kind.case === "numberValue" ? kind.value : kind.case === "stringValue" && /^\d+$/.test(kind.value.trim()) ? Number(kind.value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw invalid("customer.error.invalidStorageSize", "storageSize must be a non-negative number of bytes, or null for unlimited", { field: "storageSize" });
  }
  return n;
}

/**
 * Counts and limits are never negative: "freeLicenses, browserSessionLicenses,
 * deviceSessionLimit | long | ADMIN only; deviceSessionLimit 0 = unlimited", "storageSize |
 * long | bytes, null = unlimited", resourceLimits "{overrides: {<RESOURCE_KEY>: integer}}" where
 * "A limit of zero blocks creation". A negative value has no meaning (a negative storageSize
 * refused every upload), so it is a 400 instead of being stored.
 */
export function checkCustomerNumbers(fields: CustomerFields): void {
  const negative: string[] = [];
  for (const name of ["freeLicenses", "browserSessionLicenses", "deviceSessionLimit"] as const) {
    const v = fields[name];
    if (v !== undefined && v < 0n) negative.push(name);
  }
  for (const [key, v] of Object.entries(fields.resourceLimits?.overrides ?? {})) {
    if (v < 0n) negative.push(`resourceLimits.overrides.${key}`);
  }
  if (negative.length > 0) {
    throw invalid("customer.error.negativeValue", `${negative.join(", ")} must not be negative`, { fields: negative.join(",") });
  }
  // "long" on the wire, but stored counts are read back as JavaScript numbers (exact up to
  // 2^53 - 1, as storageSize): a larger one was a 500 (or, inside resourceLimits, silently
  // rounded to a different number), so it is a 400 naming the field instead.
  const tooLarge: string[] = [];
  for (const name of ["freeLicenses", "browserSessionLicenses", "deviceSessionLimit"] as const) {
    const v = fields[name];
    if (v !== undefined && v > MAX_COUNT) tooLarge.push(name);
  }
  for (const [key, v] of Object.entries(fields.resourceLimits?.overrides ?? {})) {
    if (v > MAX_COUNT) tooLarge.push(`resourceLimits.overrides.${key}`);
  }
  if (tooLarge.length > 0) {
    throw invalid("customer.error.invalidValue", `${tooLarge.join(", ")} must be at most ${MAX_COUNT}`, { fields: tooLarge.join(","), max: Number.MAX_SAFE_INTEGER });
  }
  storageSizeOf(fields.storageSize);
  // gRPC callers send enum numbers: one the contract does not define is refused, as the REST
  // edge refuses an unknown name, instead of being dropped.
  if (fields.vertical !== undefined && Vertical[fields.vertical] === undefined) {
    throw invalid("customer.error.invalidValue", `vertical ${fields.vertical} is not a defined value`, { field: "vertical", value: fields.vertical });
  }
  if (fields.licenseTier !== undefined && LicenseTier[fields.licenseTier] === undefined) {
    throw invalid("customer.error.invalidValue", `licenseTier ${fields.licenseTier} is not a defined value`, { field: "licenseTier", value: fields.licenseTier });
  }
  // Unix milliseconds of the dates the list conventions support (years 1 to 9999: what `search`
  // compares expirationDate with, and inside what PostgreSQL stores; JavaScript's own range went
  // past PostgreSQL's earliest date, 4713 BC, and was a 500); 0 clears it.
  const expiration = fields.expirationDate;
  if (expiration !== undefined && (expiration < MIN_DATE_MS || expiration > MAX_DATE_MS)) {
    throw invalid("customer.error.invalidValue", `expirationDate must be Unix milliseconds from ${MIN_DATE_MS} to ${MAX_DATE_MS} (years 1 to 9999)`, {
      field: "expirationDate",
      value: expiration.toString(),
    });
  }
}

const MIN_DATE_MS = BigInt(TIMESTAMP_MIN_MS);
const MAX_DATE_MS = BigInt(TIMESTAMP_MAX_MS);
const MAX_COUNT = BigInt(Number.MAX_SAFE_INTEGER);
