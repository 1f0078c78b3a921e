import { describe, expect, it } from "vitest";
import { createIdGenerator, newId } from "../src/new-id.js";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const timestampOf = (id: string) => parseInt(id.replace(/-/g, "").slice(0, 12), 16);

describe("newId", () => {
  it("produces RFC 9562 v7 UUIDs carrying the current time", () => {
    const before = Date.now();
    const id = newId();
    expect(id).toMatch(UUID_V7);
    expect(timestampOf(id)).toBeGreaterThanOrEqual(before);
    expect(timestampOf(id)).toBeLessThanOrEqual(Date.now());
  });

  it("is strictly increasing and unique within a burst", () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
  });

  it("sorts by time across milliseconds", () => {
    let t = 1_700_000_000_000;
    const gen = createIdGenerator(() => t);
    const a = gen();
    t += 1;
    const b = gen();
    expect(a < b).toBe(true);
    expect(timestampOf(b) - timestampOf(a)).toBe(1);
  });

  it("stays monotonic when the clock stalls, overflows the counter, or goes backwards", () => {
    let t = 1_700_000_000_000;
    const gen = createIdGenerator(() => t);
    const ids: string[] = [];
    for (let i = 0; i < 5_000; i++) ids.push(gen()); // > 4096: forces counter overflow
    t -= 10_000;
    for (let i = 0; i < 10; i++) ids.push(gen());
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    ids.forEach((id) => expect(id).toMatch(UUID_V7));
    expect(timestampOf(ids.at(-1)!)).toBeGreaterThan(1_700_000_000_000);
  });
});
