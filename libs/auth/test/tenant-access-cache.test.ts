import { describe, expect, it } from "vitest";
import { createInMemoryTenantDirectory, createTenantAccessCache, tenantAccessCacheMs, type TenantDirectory } from "../src/index.js";

function countingDirectory() {
  const inner = createInMemoryTenantDirectory();
  let reads = 0;
  const directory: TenantDirectory = {
    membersOf: (id) => inner.membersOf(id),
    async access(id) {
      reads++;
      return inner.access(id);
    },
  };
  return { inner, directory, reads: () => reads };
}

describe("tenant access cache", () => {
  it("answers repeated checks from memory within the TTL", async () => {
    const { inner, directory, reads } = countingDirectory();
    inner.setAccess(7, { restricted: false });
    const cached = createTenantAccessCache({ ttlMs: 1000 }).wrap(directory);
    for (let i = 0; i < 5; i++) expect((await cached.access(7))?.restricted).toBe(false);
    expect(reads()).toBe(1);
  });

  it("'restricted: true disables all access' at once in the process that committed the change", async () => {
    const { inner, directory } = countingDirectory();
    inner.setAccess(7, { restricted: false });
    const cache = createTenantAccessCache({ ttlMs: 60_000 });
    const cached = cache.wrap(directory);
    await cached.access(7);
    inner.setAccess(7, { restricted: true });
    cache.changed(7);
    expect((await cached.access(7))?.restricted).toBe(true);
  });

  it("reads again once the TTL has passed (other processes' changes)", async () => {
    const { inner, directory, reads } = countingDirectory();
    let now = 0;
    const cached = createTenantAccessCache({ ttlMs: 1000, now: () => now }).wrap(directory);
    inner.setAccess(7, { restricted: false });
    await cached.access(7);
    inner.setAccess(7, { restricted: true });
    now = 999;
    expect((await cached.access(7))?.restricted).toBe(false);
    now = 1000;
    expect((await cached.access(7))?.restricted).toBe(true);
    expect(reads()).toBe(2);
  });

  it("does not keep an answer read before a change that committed meanwhile", async () => {
    const { inner } = countingDirectory();
    inner.setAccess(7, { restricted: false });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: TenantDirectory = {
      membersOf: (id) => inner.membersOf(id),
      async access(id) {
        const answer = await inner.access(id);
        await gate;
        return answer;
      },
    };
    const cache = createTenantAccessCache({ ttlMs: 60_000 });
    const cached = cache.wrap(slow);
    const before = cached.access(7);
    inner.setAccess(7, { restricted: true });
    cache.changed(7);
    release();
    expect((await before)?.restricted).toBe(false);
    // The stale answer was not stored: the next call reads the committed state.
    expect((await cached.access(7))?.restricted).toBe(true);
  });

  it("keeps at most maxEntries tenants", async () => {
    const { directory, reads } = countingDirectory();
    const cached = createTenantAccessCache({ ttlMs: 60_000, maxEntries: 2 }).wrap(directory);
    await cached.access(1);
    await cached.access(2);
    await cached.access(3); // drops 1
    await cached.access(3);
    await cached.access(1);
    expect(reads()).toBe(4);
  });

  it("is off with a TTL of 0", async () => {
    const { directory, reads } = countingDirectory();
    const cached = createTenantAccessCache({ ttlMs: 0 }).wrap(directory);
    await cached.access(1);
    await cached.access(1);
    expect(reads()).toBe(2);
  });

  it("reads TENANT_ACCESS_CACHE_MS, refusing a malformed value", () => {
    expect(tenantAccessCacheMs({})).toBe(1000);
    expect(tenantAccessCacheMs({ TENANT_ACCESS_CACHE_MS: "0" })).toBe(0);
    expect(tenantAccessCacheMs({ TENANT_ACCESS_CACHE_MS: "250" })).toBe(250);
    expect(() => tenantAccessCacheMs({ TENANT_ACCESS_CACHE_MS: "-1" })).toThrow(/TENANT_ACCESS_CACHE_MS/);
    expect(() => tenantAccessCacheMs({ TENANT_ACCESS_CACHE_MS: "soon" })).toThrow(/TENANT_ACCESS_CACHE_MS/);
  });
});
