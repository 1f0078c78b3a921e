import { describe, expect, it } from "vitest";
import { collapsePatterns, matchesType, patternCovers } from "../src/subjects.js";
import { durableName, filterFor, supportsFilterUpdate, supportsMultiFilter, widenedFilter, type ConsumerSettings } from "../src/jetstream/consumer.js";
import { DedupeWindow } from "../src/inprocess/dedupe-window.js";

describe("type patterns", () => {
  it.each([
    ["customer.created", "customer.created", true],
    ["customer.*", "customer.created", true],
    ["customer.*", "customer.a.b", false],
    ["customer.>", "customer.a.b", true],
    ["customer.>", "customer", false],
    ["*.created", "media.created", true],
    [">", "anything.at.all", true],
  ])("%s matches %s: %s", (pattern, type, expected) => {
    expect(matchesType(pattern, type)).toBe(expected);
  });

  it("collapses covered patterns so JetStream filters never overlap", () => {
    expect(patternCovers("a.>", "a.*")).toBe(true);
    expect(patternCovers("a.*", "a.>")).toBe(false);
    expect(collapsePatterns(["a.b", "a.*", "a.*", "c.d", "c.>"])).toEqual(["a.*", "c.>"]);
  });

  it("builds consumer filters for old and new servers", () => {
    expect(filterFor("p", ["a.*", "a.b"], false)).toEqual({ filter_subject: "p.a.*" });
    expect(filterFor("p", ["a.b", "c.d"], true)).toEqual({ filter_subjects: ["p.a.b", "p.c.d"] });
    expect(filterFor("p", ["a.b", "c.d"], false)).toEqual({ filter_subject: "p.>" });
    expect(supportsMultiFilter("2.9.10")).toBe(false);
    expect(supportsMultiFilter("2.10.0")).toBe(true);
    expect(supportsMultiFilter("3.0.0")).toBe(true);
    expect(supportsFilterUpdate("2.9.10")).toBe(false);
    expect(supportsFilterUpdate("2.9.14")).toBe(true);
    expect(supportsFilterUpdate("2.10.0-beta.1")).toBe(true);
    expect(supportsFilterUpdate(undefined)).toBe(false);
    expect(durableName("media.customer-created")).toBe("media_customer-created");
  });

  it("widens an existing consumer's filter to take a subscription's patterns too, never narrowing it", () => {
    const s = (filter: ConsumerSettings["filter"], multiFilter = false): ConsumerSettings => ({
      stream: "S", durable: "d", filter, ackWaitMs: 1_000, startFrom: "new", subjectPrefix: "p", multiFilter, filterUpdates: true,
    });
    // Already takes it: left alone.
    expect(widenedFilter({ filter_subject: "p.a.*" }, s({ filter_subject: "p.a.b" }))).toBeUndefined();
    expect(widenedFilter({ filter_subject: "p.>" }, s({ filter_subject: "p.a.b" }))).toBeUndefined();
    expect(widenedFilter({}, s({ filter_subject: "p.a.b" }))).toBeUndefined();
    expect(widenedFilter({ filter_subjects: ["p.a.b", "p.c.d"] }, s({ filter_subjects: ["p.c.d", "p.a.b"] }, true))).toBeUndefined();
    // Takes less: the union.
    expect(widenedFilter({ filter_subject: "p.a.b" }, s({ filter_subject: "p.a.*" }))).toEqual({ filter_subject: "p.a.*", filter_subjects: undefined });
    expect(widenedFilter({ filter_subject: "p.a.b" }, s({ filter_subject: "p.c.d" }, true))).toEqual({ filter_subject: undefined, filter_subjects: ["p.a.b", "p.c.d"] });
    // One filter subject only (before 2.10): the whole prefix, the client filters.
    expect(widenedFilter({ filter_subject: "p.a.b" }, s({ filter_subject: "p.c.d" }))).toEqual({ filter_subject: "p.>", filter_subjects: undefined });
  });
});

describe("DedupeWindow", () => {
  it("forgets ids after the window", () => {
    const w = new DedupeWindow(100);
    expect(w.isDuplicate("a", 0)).toBe(false);
    expect(w.isDuplicate("a", 50)).toBe(true);
    expect(w.isDuplicate("a", 100)).toBe(false);
  });
});
