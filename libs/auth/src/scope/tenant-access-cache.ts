// The auth interceptor asks for a tenant's access facts on every call; they
// are kept briefly in an AccessFactsCache (see there for who sees a change when).
import { cacheMsFromEnv, createAccessFactsCache, type AccessFactsCacheOptions } from "../cache/access-facts-cache.js";
import type { TenantAccess, TenantDirectory } from "./tenant-directory.js";

export type TenantAccessCacheOptions = AccessFactsCacheOptions;

/** Told by the code that commits a change to a tenant's access facts. */
export interface TenantAccessChanges {
  /** Call after the change committed. */
  changed(customerId: number): void;
}

export interface TenantAccessCache extends TenantAccessChanges {
  /** `directory` with its `access` answers cached here; `membersOf` passes through. */
  wrap(directory: TenantDirectory): TenantDirectory;
}

export function createTenantAccessCache(options: TenantAccessCacheOptions): TenantAccessCache {
  const cache = createAccessFactsCache<TenantAccess | undefined>(options);
  return {
    changed: (customerId) => cache.changed(customerId),
    wrap(directory) {
      if (options.ttlMs <= 0) return directory;
      return {
        membersOf: (networkOwnerId) => directory.membersOf(networkOwnerId),
        access: (customerId) => cache.get(customerId, "tenant", () => directory.access(customerId)),
      };
    },
  };
}

/** `TENANT_ACCESS_CACHE_MS` (default 1000; 0 turns the cache off). */
export function tenantAccessCacheMs(env: Record<string, string | undefined>): number {
  return cacheMsFromEnv(env, "TENANT_ACCESS_CACHE_MS");
}
