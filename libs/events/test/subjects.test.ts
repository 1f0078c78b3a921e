import { describe, expect, it } from "vitest";
import { collapsePatterns, matchesType, patternCovers } from "../src/subjects.js";
import { durableName, filterFor, supportsMultiFilter } from "../src/jetstream/consumer.js";
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
    expect(durableName("media.customer-created")).toBe("media_customer-created");
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
