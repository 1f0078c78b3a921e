export interface RateLimiterOptions {
  /** One occurrence of each kind is let through per window. */
  windowMs: number;
  /** Clock, injectable for tests. */
  now?: () => number;
  /** Kinds remembered at most (a flood of distinct kinds must not grow memory without bound). */
  maxKinds?: number;
}

export type RateDecision = { allowed: true; suppressedSince: number } | { allowed: false };

export interface RateLimiter {
  /** Whether this occurrence of `kind` may be logged; an allowed one tells how many were held back since the last allowed one. */
  take(kind: string): RateDecision;
}

/** At most one occurrence per kind and window; the rest are only counted. */
export function createRateLimiter({ windowMs, now = Date.now, maxKinds = 1000 }: RateLimiterOptions): RateLimiter {
  const kinds = new Map<string, { since: number; suppressed: number }>();

  function forgetExpired(at: number) {
    for (const [kind, entry] of kinds) if (at - entry.since >= windowMs) kinds.delete(kind);
  }

  return {
    take(kind) {
      const at = now();
      const entry = kinds.get(kind);
      if (entry && at - entry.since < windowMs) {
        entry.suppressed++;
        return { allowed: false };
      }
      if (!entry && kinds.size >= maxKinds) {
        forgetExpired(at);
        // Still full of live kinds: let it through uncounted rather than remember more.
        if (kinds.size >= maxKinds) return { allowed: true, suppressedSince: 0 };
      }
      kinds.set(kind, { since: at, suppressed: 0 });
      return { allowed: true, suppressedSince: entry?.suppressed ?? 0 };
    },
  };
}
