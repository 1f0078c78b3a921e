import { describe, expect, it } from "vitest";
import { cacheMsFromEnv, createAccessFactsCache } from "../src/index.js";

function counter() {
  const reads: string[] = [];
  const load = (key: string, value = key) => async () => {
    reads.push(key);
    return value;
  };
  return { reads, load };
}

describe("access facts cache", () => {
  it("keeps one answer per tenant and key", async () => {
    const { reads, load } = counter();
    const cache = createAccessFactsCache<string>({ ttlMs: 1000 });
    for (let i = 0; i < 3; i++) {
      await cache.get(1, "u1", load("1/u1"));
      await cache.get(1, "u2", load("1/u2"));
      await cache.get(2, "u1", load("2/u1"));
    }
    expect(reads).toEqual(["1/u1", "1/u2", "2/u1"]);
  });

  it("a tenant's change drops every answer of that tenant and no other", async () => {
    const { reads, load } = counter();
    const cache = createAccessFactsCache<string>({ ttlMs: 60_000 });
    await cache.get(1, "u1", load("1/u1"));
    await cache.get(1, "u2", load("1/u2"));
    await cache.get(2, "u1", load("2/u1"));
    cache.changed(1);
    expect(await cache.get(1, "u1", load("1/u1", "new"))).toBe("new");
    await cache.get(1, "u2", load("1/u2"));
    await cache.get(2, "u1", load("2/u1"));
    expect(reads).toEqual(["1/u1", "1/u2", "2/u1", "1/u1", "1/u2"]);
  });

  it("does not keep an answer whose read began before the tenant's change", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const cache = createAccessFactsCache<string>({ ttlMs: 60_000 });
    const before = cache.get(1, "u1", async () => {
      await gate;
      return "old";
    });
    cache.changed(1);
    release();
    expect(await before).toBe("old");
    expect(await cache.get(1, "u1", async () => "new")).toBe("new");
  });

  it("drops the least recently stored entry beyond maxEntries", async () => {
    const { reads, load } = counter();
    const cache = createAccessFactsCache<string>({ ttlMs: 60_000, maxEntries: 2 });
    await cache.get(1, "a", load("a"));
    await cache.get(1, "b", load("b"));
    await cache.get(1, "c", load("c")); // drops a
    await cache.get(1, "b", load("b"));
    await cache.get(1, "a", load("a"));
    expect(reads).toEqual(["a", "b", "c", "a"]);
  });

  it("reads the time from the variable it is given, naming it when malformed", () => {
    expect(cacheMsFromEnv({}, "TEAM_ACCESS_CACHE_MS")).toBe(1000);
    expect(cacheMsFromEnv({ TEAM_ACCESS_CACHE_MS: "0" }, "TEAM_ACCESS_CACHE_MS")).toBe(0);
    expect(() => cacheMsFromEnv({ TEAM_ACCESS_CACHE_MS: "1.5" }, "TEAM_ACCESS_CACHE_MS")).toThrow(/TEAM_ACCESS_CACHE_MS must be/);
  });
});
