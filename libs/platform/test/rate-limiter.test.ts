import { describe, expect, it } from "vitest";
import { createRateLimiter } from "../src/telemetry/rate-limiter.js";

describe("createRateLimiter", () => {
  it("lets one occurrence per kind through per window and counts the rest for the next one", () => {
    let now = 0;
    const limiter = createRateLimiter({ windowMs: 60_000, now: () => now });
    expect(limiter.take("export failed")).toEqual({ allowed: true, suppressedSince: 0 });
    for (let i = 0; i < 5; i++) expect(limiter.take("export failed")).toEqual({ allowed: false });
    // Another kind has its own allowance.
    expect(limiter.take("queue full")).toEqual({ allowed: true, suppressedSince: 0 });
    now = 59_999;
    expect(limiter.take("export failed")).toEqual({ allowed: false });
    now = 60_000;
    expect(limiter.take("export failed")).toEqual({ allowed: true, suppressedSince: 6 });
    expect(limiter.take("export failed")).toEqual({ allowed: false });
    now = 200_000;
    expect(limiter.take("export failed")).toEqual({ allowed: true, suppressedSince: 1 });
  });

  it("remembers a bounded number of kinds, forgetting expired ones first", () => {
    let now = 0;
    const limiter = createRateLimiter({ windowMs: 1_000, now: () => now, maxKinds: 2 });
    limiter.take("a");
    limiter.take("b");
    // Full of live kinds: a third is let through without being remembered.
    expect(limiter.take("c")).toEqual({ allowed: true, suppressedSince: 0 });
    expect(limiter.take("c")).toEqual({ allowed: true, suppressedSince: 0 });
    expect(limiter.take("a")).toEqual({ allowed: false });
    now = 1_000;
    // a and b expired: c gets a slot and is limited from now on.
    expect(limiter.take("c")).toEqual({ allowed: true, suppressedSince: 0 });
    expect(limiter.take("c")).toEqual({ allowed: false });
  });
});
