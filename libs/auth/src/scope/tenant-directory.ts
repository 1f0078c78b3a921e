/**
 * What a service knows about tenants: which customers a network owner owns, and whether a
 * customer may be used at all. Core implements it from its customers table, other services
 * from their local replica fed by events; injected so the interceptor stays I/O-free.
 */
export interface TenantDirectory {
  membersOf(networkOwnerId: number): Promise<readonly number[]>;
  /**
   * The access facts of a customer; undefined when this directory has not heard of it yet
   * (a replica that has not received `customer.created`): such a caller is let through.
   */
  access(customerId: number): Promise<TenantAccess | undefined>;
}

/** Facts the auth interceptor checks on every call ("restricted: true disables all access"). */
export interface TenantAccess {
  restricted: boolean;
  /** Unix ms; at and after it the customer is expired. */
  expirationDate: number | null;
  /** The customer is deleted: its tokens are refused. */
  deleted: boolean;
  /** Current network-owner status (a token's `no` claim may be older). */
  networkOwner: boolean;
}

export interface InMemoryTenantDirectory extends TenantDirectory {
  setMembers(networkOwnerId: number, memberIds: readonly number[]): void;
  setAccess(customerId: number, access: Partial<TenantAccess>): void;
}

/** For tests and the embedded composition before a replica exists. */
export function createInMemoryTenantDirectory(
  initial: Iterable<readonly [number, readonly number[]]> = [],
): InMemoryTenantDirectory {
  const members = new Map<number, readonly number[]>(initial);
  const accesses = new Map<number, TenantAccess>();
  return {
    async membersOf(networkOwnerId) {
      return members.get(networkOwnerId) ?? [];
    },
    async access(customerId) {
      return accesses.get(customerId);
    },
    setMembers(networkOwnerId, memberIds) {
      members.set(networkOwnerId, [...memberIds]);
    },
    setAccess(customerId, access) {
      const base: TenantAccess = { restricted: false, expirationDate: null, deleted: false, networkOwner: members.has(customerId) };
      accesses.set(customerId, { ...base, ...accesses.get(customerId), ...access });
    },
  };
}

/** Why a customer's callers are refused right now, or undefined when they may proceed. */
export function tenantBlock(access: TenantAccess | undefined, now: number): "deleted" | "restricted" | "expired" | undefined {
  if (!access) return undefined;
  if (access.deleted) return "deleted";
  if (access.restricted) return "restricted";
  if (access.expirationDate !== null && access.expirationDate <= now) return "expired";
  return undefined;
}
