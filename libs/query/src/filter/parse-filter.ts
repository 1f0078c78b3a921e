import { FilterParseError } from "../errors.js";
import type { FilterComparison, FilterNode, FilterOperator, FilterValue } from "./ast.js";
import {
  RESERVED_IN_VALUE,
  VALUE_TERMINATORS,
  describeCharacter,
  findInvalidCharacter,
  isIdentifierPart,
  isIdentifierStart,
  isOperatorCharacter,
} from "./characters.js";
import { decodeValueText, encodeValueText } from "./percent-encoding.js";

/** Bounds that keep parsing and the generated SQL small whatever the input. */
export const FILTER_LIMITS = { maxLength: 65_536, maxNesting: 32, maxComparisons: 1_000 } as const;

const OPERATOR_LIST = ": = ≠ ∉ ^ > ≥ < ≤ ∈";

export interface ParseFilterOptions {
  /** Which request parameter the text came from; used in messages and error details. */
  readonly parameter?: string;
}

/**
 * Parses filter language text (already URL-decoded once by the HTTP layer) into an AST.
 * Grammar: and := or (',' or)* ; or := term ('|' term)* ; term := '(' and ')' | field op value.
 * Throws FilterParseError (never anything else) with the position and what was expected.
 */
export function parseFilter(text: string, options: ParseFilterOptions = {}): FilterNode {
  return new FilterParser(text, options.parameter ?? "search").parse();
}

class FilterParser {
  private index = 0;
  private comparisons = 0;
  /** Where the last `∈` comparison started and its value ended, for the separator hint. */
  private lastSet = { position: -1, end: -1 };
  private comparisonStart = 0;

  constructor(
    private readonly text: string,
    private readonly parameter: string,
  ) {}

  parse(): FilterNode {
    if (typeof this.text !== "string") this.fail(0, "the filter must be a string", ["text"]);
    if (this.text.length > FILTER_LIMITS.maxLength) {
      this.fail(FILTER_LIMITS.maxLength, `the filter is longer than ${FILTER_LIMITS.maxLength} characters`, ["a shorter filter"]);
    }
    const invalid = findInvalidCharacter(this.text);
    if (invalid !== -1) {
      this.fail(invalid, `character ${describeCharacter(this.text[invalid])} is not allowed`, ["printable text"]);
    }
    const node = this.parseAnd(0);
    if (this.index < this.text.length) {
      if (this.text[this.index] === ")") {
        this.fail(this.index, "found ')' without a matching '('", ["','", "'|'", "end of input"]);
      }
      this.failExpectedAfterTerm(0);
    }
    return node;
  }

  private parseAnd(depth: number): FilterNode {
    const first = this.parseOr(depth);
    if (this.peek() !== ",") return first;
    const children = [first];
    while (this.peek() === ",") {
      this.index++;
      children.push(this.parseOr(depth));
    }
    return { kind: "and", children };
  }

  private parseOr(depth: number): FilterNode {
    const first = this.parseTerm(depth);
    if (this.peek() !== "|") return first;
    const children = [first];
    while (this.peek() === "|") {
      this.index++;
      children.push(this.parseTerm(depth));
    }
    return { kind: "or", children };
  }

  private parseTerm(depth: number): FilterNode {
    if (this.peek() !== "(") return this.parseComparison();
    const open = this.index;
    if (depth + 1 > FILTER_LIMITS.maxNesting) {
      this.fail(open, `parentheses are nested more than ${FILTER_LIMITS.maxNesting} levels deep`, ["fewer nested groups"]);
    }
    this.index++;
    const inner = this.parseAnd(depth + 1);
    if (this.peek() !== ")") {
      if (this.index >= this.text.length) {
        this.fail(this.index, `expected ')' to close the '(' at position ${open} but found end of input`, ["')'"]);
      }
      this.failExpectedAfterTerm(depth + 1);
    }
    this.index++;
    return inner;
  }

  private parseComparison(): FilterComparison {
    const position = this.index;
    this.comparisonStart = position;
    const field = this.parseField();
    const operator = this.parseOperator(field);
    const value = this.parseValue(field, operator);
    if (++this.comparisons > FILTER_LIMITS.maxComparisons) {
      this.fail(position, `the filter has more than ${FILTER_LIMITS.maxComparisons} comparisons`, ["fewer comparisons"]);
    }
    if (operator === "∈") this.lastSet = { position, end: this.index };
    return { kind: "comparison", field, operator, value, position };
  }

  private parseField(): string {
    const start = this.index;
    this.expectIdentifier("a field name or '('");
    while (this.peek() === ".") {
      this.index++;
      this.expectIdentifier("a field name after '.'");
    }
    return this.text.slice(start, this.index);
  }

  private expectIdentifier(expected: string): void {
    if (!isIdentifierStart(this.text.charCodeAt(this.index))) {
      const hint = this.setSeparatorHint();
      this.fail(this.index, `expected ${expected} but found ${describeCharacter(this.peek())}${hint}`, [expected]);
    }
    this.index++;
    while (isIdentifierPart(this.text.charCodeAt(this.index))) this.index++;
  }

  private parseOperator(field: string): FilterOperator {
    const character = this.peek();
    if (character === undefined || !isOperatorCharacter(character)) {
      const hint = this.setSeparatorHint();
      this.fail(
        this.index,
        `expected an operator (${OPERATOR_LIST}) after field '${field}' but found ${describeCharacter(character)}${hint}`,
        OPERATOR_LIST.split(" "),
      );
    }
    this.index++;
    return character;
  }

  private parseValue(field: string, operator: FilterOperator): FilterValue {
    const start = this.index;
    while (this.index < this.text.length && !VALUE_TERMINATORS.has(this.text[this.index])) {
      const character = this.text[this.index];
      if (RESERVED_IN_VALUE.has(character)) {
        this.fail(
          this.index,
          `${describeCharacter(character)} in the value of '${field}' must be percent-encoded as ${encodeValueText(character)}`,
          ["a percent-encoded value", "','", "'|'", "')'", "end of input"],
        );
      }
      this.index++;
    }
    const raw = this.text.slice(start, this.index);
    if (operator === "=" && raw === "NULL") return { kind: "null" };
    if (operator === "=" && raw === "!NULL") return { kind: "notNull" };
    const decoded = this.decode(raw, start, field, true);
    if (operator !== "∈") return { kind: "text", text: decoded };
    // Set items were encoded once more before joining with ',' (README "Encoding").
    return { kind: "set", items: decoded.split(",").map((item) => this.decode(item, start, field, false)) };
  }

  /** `exact`: raw is a slice of the input at `start`, so error positions can point inside it. */
  private decode(raw: string, start: number, field: string, exact: boolean): string {
    const result = decodeValueText(raw);
    if (!result.ok) {
      this.fail(
        exact ? start + result.index : start,
        `invalid percent-encoding in the value of '${field}' (use %XX with two hex digits of UTF-8; write % itself as %25)`,
        ["a valid percent-encoded value"],
      );
    }
    const invalid = findInvalidCharacter(result.text);
    if (invalid !== -1) {
      this.fail(start, `the value of '${field}' decodes to the disallowed character ${describeCharacter(result.text[invalid])}`, [
        "printable text",
      ]);
    }
    return result.text;
  }

  private failExpectedAfterTerm(depth: number): never {
    const expected = depth > 0 ? ["','", "'|'", "')'"] : ["','", "'|'", "end of input"];
    this.fail(
      this.index,
      `expected ${expected.join(", ")} after a comparison or group but found ${describeCharacter(this.peek())}`,
      expected,
    );
  }

  private setSeparatorHint(): string {
    const followsSet = this.lastSet.end !== -1 && this.comparisonStart === this.lastSet.end + 1 && this.text[this.lastSet.end] === ",";
    return followsSet
      ? ` (the ∈ value at position ${this.lastSet.position} ended at a raw ','; separators inside a ∈ value must be encoded as %2C)`
      : "";
  }

  private peek(): string | undefined {
    return this.text[this.index];
  }

  private fail(position: number, problem: string, expected: readonly string[]): never {
    throw new FilterParseError(`Invalid ${this.parameter} at position ${position}: ${problem}`, position, expected, this.parameter);
  }
}
