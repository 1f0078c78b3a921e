import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { FilterParseError, parseFilter, printFilter } from "../src/index.js";
import { comparison, filterLikeString, filterTree } from "./support/arbitraries.js";
import { and, inSet, isNull, notNull, or, text, withoutPositions } from "./support/ast.js";
import { SEED } from "./support/seed-quotes.js";

describe("printFilter", () => {
  test(`${SEED.precedence} — parentheses only where needed`, () => {
    expect(printFilter(and(or(text("a", ":", "1"), text("b", ":", "2")), text("c", ":", "3")))).toBe("a:1|b:2,c:3");
    expect(printFilter(or(text("a", ":", "1"), and(text("b", ":", "2"), text("c", ":", "3"))))).toBe("a:1|(b:2,c:3)");
    expect(printFilter(and(and(text("a", ":", "1"), text("b", ":", "2")), text("c", ":", "3")))).toBe("(a:1,b:2),c:3");
    expect(printFilter(or(or(text("a", ":", "1"), text("b", ":", "2")), text("c", ":", "3")))).toBe("(a:1|b:2)|c:3");
  });

  test(`${SEED.encoding} — operator characters, separators and % are encoded`, () => {
    expect(printFilter(text("name", ":", "a:b,c|d(e)f%≠"))).toBe("name:a%3Ab%2Cc%7Cd%28e%29f%25%E2%89%A0");
  });

  test(`${SEED.inSet} — items are encoded, joined by ',', and the whole encoded again`, () => {
    expect(printFilter(inSet("id", "a", "b,c"))).toBe("id∈a%2Cb%252Cc");
  });

  test(`${SEED.specialValues} — NULL specials print bare, the text NULL after '=' is encoded`, () => {
    expect(printFilter(isNull("a"))).toBe("a=NULL");
    expect(printFilter(notNull("a"))).toBe("a=!NULL");
    expect(printFilter(text("a", "=", "NULL"))).toBe("a=%4EULL");
    expect(printFilter(text("a", "=", "!NULL"))).toBe("a=%21NULL");
    expect(printFilter(text("a", ":", "NULL"))).toBe("a:NULL");
  });
});

describe("property: the parser", () => {
  test("random strings never throw anything but FilterParseError", () => {
    fc.assert(
      fc.property(filterLikeString, (input) => {
        try {
          parseFilter(input);
        } catch (error) {
          if (!(error instanceof FilterParseError)) throw error;
          expect(error.position).toBeGreaterThanOrEqual(0);
          expect(error.position).toBeLessThanOrEqual(input.length);
          expect(error.expected.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 3000 },
    );
  });

  test("random well-formed ASTs print and re-parse to the same AST", () => {
    fc.assert(
      fc.property(filterTree(comparison), (tree) => {
        expect(withoutPositions(parseFilter(printFilter(tree)))).toEqual(tree);
      }),
      { numRuns: 1500 },
    );
  });

  test("whatever parses, prints to text that parses to the same AST", () => {
    fc.assert(
      fc.property(filterLikeString, (input) => {
        let parsed;
        try {
          parsed = withoutPositions(parseFilter(input));
        } catch {
          return;
        }
        expect(withoutPositions(parseFilter(printFilter(parsed)))).toEqual(parsed);
      }),
      { numRuns: 2000 },
    );
  });
});
