/**
 * Which customers a network owner owns. Core implements it from its customers table, other
 * services from their local replica fed by events; injected so the interceptor stays I/O-free.
 */
export interface TenantDirectory {
  membersOf(networkOwnerId: number): Promise<readonly number[]>;
}

export interface InMemoryTenantDirectory extends TenantDirectory {
  setMembers(networkOwnerId: number, memberIds: readonly number[]): void;
}

/** For tests and the embedded composition before a replica exists. */
export function createInMemoryTenantDirectory(
  initial: Iterable<readonly [number, readonly number[]]> = [],
): InMemoryTenantDirectory {
  const members = new Map<number, readonly number[]>(initial);
  return {
    async membersOf(networkOwnerId) {
      return members.get(networkOwnerId) ?? [];
    },
    setMembers(networkOwnerId, memberIds) {
      members.set(networkOwnerId, [...memberIds]);
    },
  };
}
