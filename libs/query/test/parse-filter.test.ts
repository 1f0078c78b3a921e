import { describe, expect, test } from "vitest";
import { FILTER_LIMITS, FilterParseError, ListQueryError, parseFilter, type FilterNode } from "../src/index.js";
import { and, inSet, isNull, notNull, or, text, withoutPositions } from "./support/ast.js";
import { SEED } from "./support/seed-quotes.js";

const parse = (input: string): FilterNode => withoutPositions(parseFilter(input));

function parseError(input: string): FilterParseError {
  try {
    parseFilter(input);
  } catch (error) {
    expect(error).toBeInstanceOf(FilterParseError);
    return error as FilterParseError;
  }
  throw new Error(`expected '${input}' to be rejected`);
}

describe(SEED.colon, () => {
  test("':' parses as its own operator (the compiler decides contains vs equals by type)", () => {
    expect(parse("name:lobby")).toEqual(text("name", ":", "lobby"));
  });
});

describe(SEED.equals, () => {
  test("'=' parses with its value", () => {
    expect(parse("deviceStatus=ONLINE")).toEqual(text("deviceStatus", "=", "ONLINE"));
  });
});

describe(SEED.negations, () => {
  test.each([
    ["name≠x", "≠"],
    ["name∉x", "∉"],
    ["name^x", "^"],
  ] as const)("%s", (input, operator) => {
    expect(parse(input)).toEqual(text("name", operator, "x"));
  });
});

describe(SEED.ranges, () => {
  test.each([">", "≥", "<", "≤"] as const)("lastActivity%s1700000000000", (operator) => {
    expect(parse(`lastActivity${operator}1700000000000`)).toEqual(text("lastActivity", operator, "1700000000000"));
  });
});

describe(SEED.inSet, () => {
  test("the set's separators are encoded (%2C) and split after decoding", () => {
    expect(parse("id∈a%2Cb%2Cc")).toEqual(inSet("id", "a", "b", "c"));
  });
  test("an item that itself contains ',' is encoded twice (%252C)", () => {
    expect(parse("name∈a%252Cb%2Cc")).toEqual(inSet("name", "a,b", "c"));
  });
  test("a single value is a one-item set", () => {
    expect(parse("id∈a")).toEqual(inSet("id", "a"));
  });
  test("an unencoded separator ends the comparison; the error points at the stray item and says how to encode", () => {
    const error = parseError("id∈a,b");
    expect(error.position).toBe(6);
    expect(error.message).toContain("%2C");
  });
});

describe(SEED.tags, () => {
  test("tags:value is a ':' comparison on the array field", () => {
    expect(parse("tags:lobby")).toEqual(text("tags", ":", "lobby"));
  });
  test("the documented template filter `(tags:a|tags:b),tags:c`", () => {
    expect(parse("(tags:a|tags:b),tags:c")).toEqual(and(or(text("tags", ":", "a"), text("tags", ":", "b")), text("tags", ":", "c")));
  });
});

describe(SEED.logic, () => {
  test("',' is AND", () => {
    expect(parse("a:1,b:2,c:3")).toEqual(and(text("a", ":", "1"), text("b", ":", "2"), text("c", ":", "3")));
  });
  test("'|' is OR", () => {
    expect(parse("a:1|b:2")).toEqual(or(text("a", ":", "1"), text("b", ":", "2")));
  });
  test("parentheses group", () => {
    expect(parse("a:1|(b:2,c:3)")).toEqual(or(text("a", ":", "1"), and(text("b", ":", "2"), text("c", ":", "3"))));
  });
  test("a group around a single comparison is just that comparison", () => {
    expect(parse("((a:1))")).toEqual(text("a", ":", "1"));
  });
  test("nested groups keep their structure", () => {
    expect(parse("((a:1,b:2)|c:3),d:4")).toEqual(
      and(or(and(text("a", ":", "1"), text("b", ":", "2")), text("c", ":", "3")), text("d", ":", "4")),
    );
  });
});

describe(SEED.precedence, () => {
  test("a:1|b:2,c:3 is (a OR b) AND c", () => {
    expect(parse("a:1|b:2,c:3")).toEqual(and(or(text("a", ":", "1"), text("b", ":", "2")), text("c", ":", "3")));
  });
  test("a:1,b:2|c:3 is a AND (b OR c)", () => {
    expect(parse("a:1,b:2|c:3")).toEqual(and(text("a", ":", "1"), or(text("b", ":", "2"), text("c", ":", "3"))));
  });
});

describe(SEED.specialValues, () => {
  test("=NULL", () => expect(parse("comment=NULL")).toEqual(isNull("comment")));
  test("=!NULL", () => expect(parse("comment=!NULL")).toEqual(notNull("comment")));
  test("=true and =false are values the boolean type reads", () => {
    expect(parse("enabled=true,locked=false")).toEqual(and(text("enabled", "=", "true"), text("locked", "=", "false")));
  });
  test("NULL is special only right after '=' (≠NULL and :NULL are text)", () => {
    expect(parse("a≠NULL")).toEqual(text("a", "≠", "NULL"));
    expect(parse("a:NULL")).toEqual(text("a", ":", "NULL"));
  });
  test("an encoded NULL is the text 'NULL', not the special value", () => {
    expect(parse("a=%4EULL")).toEqual(text("a", "=", "NULL"));
    expect(parse("a=%21NULL")).toEqual(text("a", "=", "!NULL"));
  });
});

describe(SEED.nested, () => {
  test("content.name:x", () => expect(parse("content.name:x")).toEqual(text("content.name", ":", "x")));
  test("teamAssignments.team.id=<id>", () => expect(parse("teamAssignments.team.id=t1")).toEqual(text("teamAssignments.team.id", "=", "t1")));
  test.each([
    ["a.:x", 2],
    ["a..b:x", 2],
    [".a:x", 0],
  ])("a malformed path %s is rejected at %i", (input, position) => {
    expect(parseError(input).position).toBe(position);
  });
});

describe(SEED.encoding, () => {
  test("percent-encoded values are decoded after parsing", () => {
    expect(parse("name:a%3Ab%2Cc%7Cd%28e%29f%25")).toEqual(text("name", ":", "a:b,c|d(e)f%"));
  });
  test("multi-byte operator characters decode from UTF-8", () => {
    expect(parse("name:%E2%89%A0%E2%88%88")).toEqual(text("name", ":", "≠∈"));
  });
  test("over raw HTTP the operators are double-encoded: one decode by the HTTP layer, one by the parser", () => {
    const rawQueryValue = "name%3Aa%253Ab";
    expect(parse(decodeURIComponent(rawQueryValue))).toEqual(text("name", ":", "a:b"));
  });
  test("'+' and spaces are literal (only the HTTP layer treats '+')", () => {
    expect(parse("name:a+b c")).toEqual(text("name", ":", "a+b c"));
  });
  test.each([
    ["name:a:b", 6, "%3A"],
    ["name:a=b", 6, "%3D"],
    ["name:a(b", 6, "%28"],
    ["name:x≥y", 6, "%E2%89%A5"],
  ])("an unencoded operator character in %s is rejected at %i, naming its encoding", (input, position, encoding) => {
    const error = parseError(input);
    expect(error.position).toBe(position);
    expect(error.message).toContain(encoding);
    expect(error.expected).toContain("a percent-encoded value");
  });
  test.each([
    ["name:ab%zz", 7],
    ["name:%E2%89", 5],
    ["name:abc%", 8],
  ])("an invalid percent-encoding in %s is rejected at %i", (input, position) => {
    expect(parseError(input).position).toBe(position);
  });
  test("a value that decodes to U+0000 is rejected (PostgreSQL text cannot hold it)", () => {
    expect(parseError("name:%00").message).toContain("U+0000");
  });
});

describe(SEED.caseSensitive, () => {
  test("field names and values keep their case", () => {
    expect(parse("Name:ABC")).toEqual(text("Name", ":", "ABC"));
  });
  test("=null (lower case) is not the special value", () => {
    expect(parse("a=null")).toEqual(text("a", "=", "null"));
  });
});

describe("parse errors name the position and what was expected", () => {
  test.each([
    ["", 0, "a field name or '('"],
    ["name", 4, ":"],
    ["name~x", 4, "∈"],
    ["a:1)", 3, "end of input"],
    ["(a:1", 4, "')'"],
    ["()", 1, "a field name or '('"],
    ["a:1,", 4, "a field name or '('"],
    ["|a:1", 0, "a field name or '('"],
    [" a:1", 0, "a field name or '('"],
    ["a:1(b", 3, "a percent-encoded value"],
  ])("%j fails at %i expecting %s", (input, position, expected) => {
    const error = parseError(input);
    expect(error.position).toBe(position);
    expect(error.expected).toContain(expected);
    expect(error.message).toMatch(new RegExp(`^Invalid search at position ${position}: `));
  });

  test("a missing operator names the field and the operators", () => {
    expect(parseError("name~x").message).toBe(
      "Invalid search at position 4: expected an operator (: = ≠ ∉ ^ > ≥ < ≤ ∈) after field 'name' but found '~'",
    );
  });

  test("it is a ListQueryError with key search.error.invalid and details for the gateway", () => {
    const error = parseError("name");
    expect(error).toBeInstanceOf(ListQueryError);
    expect(error.key).toBe("search.error.invalid");
    expect(error.status).toBe(400);
    expect(error.details).toEqual({ parameter: "search", position: 4, expected: [":", "=", "≠", "∉", "^", ">", "≥", "<", "≤", "∈"] });
  });

  test("quick filter text reports itself as such", () => {
    try {
      parseFilter("x", { parameter: "quickFilter" });
      expect.unreachable();
    } catch (error) {
      expect((error as FilterParseError).message).toMatch(/^Invalid quickFilter at position 1/);
      expect((error as FilterParseError).details.parameter).toBe("quickFilter");
    }
  });

  test("NUL and lone surrogates are rejected", () => {
    expect(parseError("name:a\u0000").position).toBe(6);
    expect(parseError("name:\ud800x").position).toBe(5);
  });

  test("limits keep parsing bounded", () => {
    expect(parseError("(".repeat(FILTER_LIMITS.maxNesting + 1) + "a:1" + ")".repeat(FILTER_LIMITS.maxNesting + 1)).message).toContain("nested");
    expect(parse("(".repeat(FILTER_LIMITS.maxNesting) + "a:1" + ")".repeat(FILTER_LIMITS.maxNesting))).toEqual(text("a", ":", "1"));
    expect(parseError("a:" + "x".repeat(FILTER_LIMITS.maxLength)).message).toContain("longer than");
    expect(parseError(Array.from({ length: FILTER_LIMITS.maxComparisons + 1 }, () => "a:1").join(",")).message).toContain("comparisons");
  });

  test("positions are recorded on comparisons", () => {
    const node = parseFilter("a:1,(b:2|c:3)");
    expect(node.kind === "and" && node.children[0]).toMatchObject({ position: 0 });
    expect(node.kind === "and" && node.children[1].kind === "or" && node.children[1].children[1]).toMatchObject({ position: 9 });
  });
});
