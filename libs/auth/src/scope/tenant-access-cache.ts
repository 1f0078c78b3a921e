// The auth interceptor asks for a tenant's access facts on every call; reading
// them from the database each time doubled the statements of a simple read.
// This cache keeps each answer for a short time. The process that commits a
// change evicts the entry right after the commit (so its own next call sees the
// change at once); other processes of the same service see it within `ttlMs`.
import type { TenantAccess, TenantDirectory } from "./tenant-directory.js";

export interface TenantAccessCacheOptions {
  /** How long an answer is reused; 0 turns the cache off. */
  ttlMs: number;
  /** Entries kept at most (the oldest goes first). Default 10,000. */
  maxEntries?: number;
  now?: () => number;
}

/** Told by the code that commits a change to a tenant's access facts. */
export interface TenantAccessChanges {
  /** Call after the change committed. */
  changed(customerId: number): void;
}

export interface TenantAccessCache extends TenantAccessChanges {
  /** `directory` with its `access` answers cached here; `membersOf` passes through. */
  wrap(directory: TenantDirectory): TenantDirectory;
}

interface Entry {
  access: TenantAccess | undefined;
  expiresAt: number;
}

export function createTenantAccessCache({ ttlMs, maxEntries = 10_000, now = Date.now }: TenantAccessCacheOptions): TenantAccessCache {
  const entries = new Map<number, Entry>();
  // Bumped by every eviction: a read that started before a change must not
  // store its (possibly older) answer after the eviction.
  const generations = new Map<number, number>();

  function remember(customerId: number, access: TenantAccess | undefined) {
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as number);
    entries.set(customerId, { access, expiresAt: now() + ttlMs });
  }

  return {
    changed(customerId) {
      entries.delete(customerId);
      generations.set(customerId, (generations.get(customerId) ?? 0) + 1);
    },
    wrap(directory) {
      if (ttlMs <= 0) return directory;
      return {
        membersOf: (networkOwnerId) => directory.membersOf(networkOwnerId),
        async access(customerId) {
          const hit = entries.get(customerId);
          if (hit && hit.expiresAt > now()) return hit.access;
          const generation = generations.get(customerId);
          const access = await directory.access(customerId);
          if (generations.get(customerId) === generation) remember(customerId, access);
          return access;
        },
      };
    },
  };
}

/** `TENANT_ACCESS_CACHE_MS` (default 1000; 0 turns the cache off). */
export function tenantAccessCacheMs(env: Record<string, string | undefined>): number {
  const raw = env.TENANT_ACCESS_CACHE_MS?.trim();
  if (!raw) return 1000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`TENANT_ACCESS_CACHE_MS must be a whole number of milliseconds >= 0, got '${raw}'`);
  return value;
}
