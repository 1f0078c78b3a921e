// Verifying an ES256 signature costs ~0.25 ms of CPU, paid on every call of
// every service. A token's verdict cannot change before it expires (what can
// change — a restricted customer, a deleted user — is checked per call
// elsewhere), so a verified token is remembered until its `exp`.
import type { Caller } from "../caller.js";

export interface VerifiedTokenCache {
  get(token: string): Caller | undefined;
  set(token: string, caller: Caller, expiresAtMs: number): void;
}

/** Bounded map in insertion order: the oldest entry goes first when full. */
export function createVerifiedTokenCache(maxEntries: number, now: () => number): VerifiedTokenCache {
  const entries = new Map<string, { caller: Caller; expiresAtMs: number }>();
  return {
    get(token) {
      const hit = entries.get(token);
      if (!hit) return undefined;
      if (hit.expiresAtMs <= now()) {
        entries.delete(token);
        return undefined;
      }
      return hit.caller;
    },
    set(token, caller, expiresAtMs) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(token, { caller, expiresAtMs });
    },
  };
}
