// Access facts (a tenant's block state, a user's team facts) are read on every
// call; reading them from the database each time doubles the statements of a
// simple read. This cache keeps each answer for a short time, grouped by
// tenant: the process that applies a change evicts the tenant's group right
// after the commit (its own next call sees the change at once); other
// processes of the same service see it within `ttlMs`.

export interface AccessFactsCacheOptions {
  /** How long an answer is reused; 0 turns the cache off. */
  ttlMs: number;
  /** Entries kept at most (the oldest goes first). Default 10,000. */
  maxEntries?: number;
  now?: () => number;
}

export interface AccessFactsCache<V> {
  /** The cached answer for `key` of tenant `customerId`, or `load()`'s (kept for `ttlMs`). */
  get(customerId: number, key: string, load: () => Promise<V>): Promise<V>;
  /** Call after a change of the tenant's facts committed: every answer of the tenant goes. */
  changed(customerId: number): void;
}

interface Entry<V> {
  customerId: number;
  value: V;
  expiresAt: number;
}

export function createAccessFactsCache<V>({ ttlMs, maxEntries = 10_000, now = Date.now }: AccessFactsCacheOptions): AccessFactsCache<V> {
  const entries = new Map<string, Entry<V>>();
  // Bumped by every eviction: a read that started before a change must not
  // store its (possibly older) answer after the eviction.
  const generations = new Map<number, number>();

  return {
    async get(customerId, key, load) {
      if (ttlMs <= 0) return load();
      const id = `${customerId}/${key}`;
      const hit = entries.get(id);
      if (hit && hit.expiresAt > now()) return hit.value;
      const generation = generations.get(customerId);
      const value = await load();
      if (generations.get(customerId) === generation) {
        entries.delete(id); // re-inserted last: the oldest entry is always first
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(id, { customerId, value, expiresAt: now() + ttlMs });
      }
      return value;
    },
    changed(customerId) {
      generations.set(customerId, (generations.get(customerId) ?? 0) + 1);
      for (const [id, entry] of entries) if (entry.customerId === customerId) entries.delete(id);
    },
  };
}

/** A cache time in milliseconds from `env[name]` (unset: `fallback`; 0 turns the cache off). */
export function cacheMsFromEnv(env: Record<string, string | undefined>, name: string, fallback = 1000): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number of milliseconds >= 0, got '${raw}'`);
  return value;
}
